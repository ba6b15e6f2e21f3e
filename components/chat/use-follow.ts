// Follows the conversation's end: when new output arrives and the reader is at the end of the
// page, the page scrolls to show it; once they scroll up to read, it stays put and `behind` says
// so (the chat offers "Jump to latest"). The page itself scrolls (the composer is sticky), so the
// window's position is what counts. Scrolling is instant: a smooth scroll could be overtaken by
// the next chunk of output and leave the reader "behind" without their doing.
'use client';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';

/** Within this many pixels of the end counts as at the end (rounding, a half-visible line). */
const SLACK_PX = 64;

function atEnd(): boolean {
  const page = document.documentElement;
  return window.innerHeight + window.scrollY >= page.scrollHeight - SLACK_PX;
}

function toEnd(): void {
  window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' });
}

/** `version` changes whenever the conversation grows (e.g. the transcript's items). */
export function useFollow(version: unknown): { behind: boolean; jump(): void } {
  const following = useRef(true);
  const [behind, setBehind] = useState(false);

  useEffect(() => {
    const onScroll = () => {
      following.current = atEnd();
      setBehind(!following.current);
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  // Before paint, so the reader never sees the new output land below the fold first.
  useLayoutEffect(() => {
    if (following.current) toEnd();
    else setBehind(true);
  }, [version]);

  const jump = useCallback(() => {
    following.current = true;
    setBehind(false);
    toEnd();
  }, []);

  return { behind, jump };
}
