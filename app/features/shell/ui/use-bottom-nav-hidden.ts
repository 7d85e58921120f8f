// The bottom navigation hides while the on-screen keyboard is open (the visual viewport is more than
// 150 px shorter than the largest height seen at this width) or while a message input is focused.
import { useEffect, useState } from "react";

export const KEYBOARD_THRESHOLD_PX = 150;
export const MESSAGE_INPUT_SELECTOR = "[data-message-input]";

export function keyboardOpen(largestHeight: number, height: number): boolean {
  return largestHeight - height > KEYBOARD_THRESHOLD_PX;
}

function isMessageInput(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest(MESSAGE_INPUT_SELECTOR) !== null;
}

export function useBottomNavHidden(): boolean {
  const [keyboard, setKeyboard] = useState(false);
  const [typing, setTyping] = useState(false);

  useEffect(() => {
    const viewport = window.visualViewport;
    if (!viewport) return;
    let width = viewport.width;
    let largest = viewport.height;
    const onResize = () => {
      // A rotation or window resize changes the width: start measuring again.
      if (Math.abs(viewport.width - width) > 1) {
        width = viewport.width;
        largest = viewport.height;
      }
      largest = Math.max(largest, viewport.height);
      setKeyboard(keyboardOpen(largest, viewport.height));
    };
    viewport.addEventListener("resize", onResize);
    return () => viewport.removeEventListener("resize", onResize);
  }, []);

  useEffect(() => {
    const onFocusIn = (event: FocusEvent) => setTyping(isMessageInput(event.target));
    const onFocusOut = (event: FocusEvent) => {
      if (!isMessageInput(event.relatedTarget)) setTyping(false);
    };
    document.addEventListener("focusin", onFocusIn);
    document.addEventListener("focusout", onFocusOut);
    if (isMessageInput(document.activeElement)) setTyping(true);
    return () => {
      document.removeEventListener("focusin", onFocusIn);
      document.removeEventListener("focusout", onFocusOut);
    };
  }, []);

  return keyboard || typing;
}
