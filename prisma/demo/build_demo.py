#!/usr/bin/env python3
"""Generate demo.jsonl and manifest.json from the record sources in _src/.

The demo dataset is original content written for Verity. Each record source is a
Python dict (see _src/common.py for the fields); this script renders the critic
output in its various formats, interleaves the languages and writes both files.

Usage: python3 prisma/demo/build_demo.py
"""
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "_src"))

from common import render_critic  # noqa: E402
import records_scripting  # noqa: E402
import records_compiled  # noqa: E402
import records_misc  # noqa: E402

def interleave(records):
    """Fixed-seed shuffle so that languages and flawed records are mixed like a real dump."""
    out = list(records)
    random.Random(20240611).shuffle(out)
    return out


def main():
    records = records_scripting.RECORDS + records_compiled.RECORDS + records_misc.RECORDS
    ordered = interleave(records)
    lines = []
    manifest = []
    for i, r in enumerate(ordered, start=1):
        critic_obj, critic_value = render_critic(r)
        obj = {
            "question": r["question"].strip() + "\n",
            "canonical_solution": r["solution"].strip("\n") + "\n",
            "demo_test_func": r["demo"].strip("\n") + "\n",
            "full_test_func": r["full"].strip("\n") + "\n",
            "language": r["language"],
            "difficulty": r["difficulty"],
        }
        obj.update(r.get("extra", {}))
        obj["critic_result"] = critic_value
        obj["critic_reasoning"] = r["reasoning"].strip()
        lines.append(json.dumps(obj, ensure_ascii=False))
        critic_pass = critic_obj["summary"]["overall_pass"]
        manifest.append({
            "line": i,
            "language": r["language"],
            "title": r["title"],
            "valid": r["valid"],
            "flaw": r.get("flaw"),
            "explanation": r["explanation"].strip(),
            "criticAgrees": critic_pass == r["valid"],
            "expectedExecution": r.get("expected_execution", "pass" if r["valid"] else "any"),
        })
    with open(os.path.join(HERE, "demo.jsonl"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    doc = {
        "description": (
            "Verity demo dataset: original AutoCodeBench-style records in 15 languages. "
            "Valid records' canonical solutions pass both tests under the execution rules of "
            "DESIGN.md; flawed records carry exactly one realistic defect named by `flaw` "
            "(an error-category key). `criticAgrees` says whether the embedded critic verdict "
            "(summary.overall_pass) matches `valid`. `expectedExecution` (pass | fail | any) is "
            "what running the canonical solution against both tests should give here; "
            "prisma/demo/check.py verifies it. Regenerate with prisma/demo/build_demo.py."
        ),
        "records": manifest,
    }
    with open(os.path.join(HERE, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=2, ensure_ascii=False)
        f.write("\n")
    print(f"wrote {len(lines)} records")


if __name__ == "__main__":
    main()
