"use client";

// Keys pressed while the workspace is between two states (a label saved and the next item on its
// way, a field about to take focus) belong to the state that comes next. A fast typist pressed
// Enter, N and a note: the old form took the letters, the new item arrived mid-word, focus fell to
// the page, and an "r" in the note started a run. Holding the keys and replaying them once the
// next state is on screen gives the note every letter and the shortcuts none.

type HeldKey = Pick<KeyboardEvent, "key" | "code" | "ctrlKey" | "metaKey" | "altKey" | "shiftKey">;

const NON_TEXT_INPUTS = new Set(["checkbox", "radio", "button", "submit", "reset", "range", "color", "file"]);

/** Whether a key press is meant for the element: text fields, selects, Monaco, editable content. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (typeof HTMLElement === "undefined" || !(target instanceof HTMLElement)) return false;
  if (target.closest("textarea, select, .monaco-editor, [contenteditable=''], [contenteditable='true']")) return true;
  return target instanceof HTMLInputElement && !NON_TEXT_INPUTS.has(target.type);
}

/** A field a replayed character can be typed into (a select or Monaco takes real keys only). */
function isTextField(element: Element | null): element is HTMLInputElement | HTMLTextAreaElement {
  return element instanceof HTMLTextAreaElement || (element instanceof HTMLInputElement && isTypingTarget(element));
}

let held: HeldKey[] | null = null;
let giveUp: ReturnType<typeof setTimeout> | undefined;
let isReplaying = false;
let isDelivering = false;

function keep(event: KeyboardEvent) {
  if (!held || isDelivering) return;
  event.preventDefault();
  event.stopImmediatePropagation();
  // A submit pressed while the last one is still moving on (or waiting for the critic) is not
  // replayed: it would send the label again, or land on the next item before anything is chosen.
  if (event.key === "Enter") return;
  const { key, code, ctrlKey, metaKey, altKey, shiftKey } = event;
  held.push({ key, code, ctrlKey, metaKey, altKey, shiftKey });
}

/**
 * From now on, keys pressed anywhere in the page are kept, not delivered, until `releaseKeys` (or
 * `timeoutMs`, so that a move that never finishes cannot swallow the keyboard). Holding again while
 * held keeps the keys already held.
 */
export function holdKeys(timeoutMs = 10_000) {
  clearTimeout(giveUp);
  giveUp = setTimeout(releaseKeys, timeoutMs);
  if (held) return;
  held = [];
  window.addEventListener("keydown", keep, { capture: true });
}

/**
 * Holds keys until a text field takes focus (a shortcut opened it and its render is on the way), or
 * `timeoutMs`, then replays them into it.
 */
export function holdKeysUntilTextFocus(timeoutMs = 1_000) {
  holdKeys(timeoutMs);
  const onFocus = (event: FocusEvent) => {
    if (!isTextField(event.target as Element | null)) return;
    window.removeEventListener("focusin", onFocus, { capture: true });
    releaseKeys();
  };
  window.addEventListener("focusin", onFocus, { capture: true });
  setTimeout(() => window.removeEventListener("focusin", onFocus, { capture: true }), timeoutMs);
}

/** One held key, delivered to the page as it is now: typed into the focused field, or pressed on it. */
function replay(key: HeldKey) {
  const focused = document.activeElement;
  const isPlain = !key.ctrlKey && !key.metaKey && !key.altKey;
  if (isTextField(focused) && isPlain && key.key.length === 1) {
    // insertText goes through the browser's editing, so React sees an ordinary input event.
    document.execCommand("insertText", false, key.key);
    return;
  }
  if (isTextField(focused) && isPlain && key.key === "Backspace") {
    document.execCommand("delete");
    return;
  }
  isDelivering = true;
  try {
    (focused instanceof HTMLElement ? focused : document.body).dispatchEvent(
      new KeyboardEvent("keydown", { ...key, bubbles: true, cancelable: true }),
    );
  } finally {
    isDelivering = false;
  }
}

/**
 * Replays the held keys in order, one task apart so that each one's render (N focusing the note) is
 * on screen before the next; keys pressed during the replay join its end. Then keys flow again.
 */
export function releaseKeys() {
  clearTimeout(giveUp);
  if (!held || isReplaying) return;
  isReplaying = true;
  const step = () => {
    const next = held?.shift();
    if (next) {
      replay(next);
      setTimeout(step, 0);
      return;
    }
    window.removeEventListener("keydown", keep, { capture: true });
    held = null;
    isReplaying = false;
  };
  setTimeout(step, 0);
}
