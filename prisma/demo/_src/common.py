"""Shared helpers for the demo record sources.

A record source is a dict with:
  language, title, difficulty, question, solution, demo, full,
  valid (bool), flaw (None or error-category key), explanation,
  expected_execution ("pass" | "fail" | "any"; default pass for valid, any for flawed),
  critic: dict(name=..., fails={rule: reason}, overrides={rule: reason},
               key_points=[...], style="object"|"string"|"fenced"|"loose"|"inconsistent"),
  reasoning (free-text critic trace), extra (unknown fields kept by the app).
"""
import json

RULES = [
    "Naming/Signature Inconsistency",
    "Randomness/Non-reproducible",
    "Incorrect Test Target",
    "Improper Precision Handling",
    "Exception Swallowing",
    "Non-executable Tests",
    "Irrelevant Requirements",
    "Other Issues",
]

DEFAULT_PASS = {
    "Naming/Signature Inconsistency": "The statement, the solution and both tests use `{name}` with the same signature.",
    "Randomness/Non-reproducible": "All inputs are fixed literals; no random numbers, clocks or unordered iteration influence the expected outputs.",
    "Incorrect Test Target": "The tests call `{name}` directly, which is what the statement asks for.",
    "Improper Precision Handling": "No floating-point values are compared.",
    "Exception Swallowing": "The tests do not catch exceptions; a failing check stops the run.",
    "Non-executable Tests": "The tests only use names defined by the solution or the standard library and are syntactically valid.",
    "Irrelevant Requirements": "Every behaviour checked by the tests is described in the statement.",
    "Other Issues": "No other issues found.",
}


def critic_object(spec):
    name = spec.get("name", "the function")
    fails = spec.get("fails", {})
    overrides = spec.get("overrides", {})
    results = []
    for rule in RULES:
        if rule in fails:
            results.append({"rule": rule, "result": "fail", "reason": fails[rule]})
        else:
            reason = overrides.get(rule, DEFAULT_PASS[rule]).replace("{name}", name)
            results.append({"rule": rule, "result": "pass", "reason": reason})
    failed = [r for r in RULES if r in fails]
    key_points = spec.get("key_points") or (
        ["Statement, solution and tests are consistent."] if not failed else []
    )
    obj = {
        "rule_results": results,
        "summary": {"overall_pass": not failed, "failed_rules": failed, "key_points": key_points},
    }
    style = spec.get("style", "object")
    if style == "inconsistent-pass":
        # A rule marked "fail" as a minor remark while the summary still passes.
        rule, reason = spec["minor"]
        for r in obj["rule_results"]:
            if r["rule"] == rule:
                r["result"] = "fail"
                r["reason"] = reason
    if style == "inconsistent-fail":
        # Per-rule results all "pass" but the summary fails: trust the summary.
        for r in obj["rule_results"]:
            r["result"] = "pass"
    return obj


def render_critic(rec):
    spec = rec["critic"]
    obj = critic_object(spec)
    style = spec.get("style", "object")
    if style in ("object", "inconsistent-pass", "inconsistent-fail"):
        value = obj
    elif style == "string":
        value = json.dumps(obj, ensure_ascii=False)
    elif style == "fenced":
        intro = spec.get("intro", "I checked the problem statement against the solution and both test functions. My evaluation:")
        value = intro + "\n\n```json\n" + json.dumps(obj, indent=2, ensure_ascii=False) + "\n```\n"
    elif style == "fenced-trailing":
        value = ("```json\n" + json.dumps(obj, indent=2, ensure_ascii=False) + "\n```\n\n"
                 + spec.get("outro", "Overall the record looks usable."))
    else:
        raise ValueError(style)
    return obj, value
