// A long list of links (the pronunciation game's 100 levels) as plain `<a href>`s that React does
// not have to own one by one: each `<Link>` costs a dozen hooks at hydration, paid 100 times on a cheap phone. One
// handler on the list gives every link a client navigation and prefetch on intent, as `<Link prefetch="intent">` would;
// without JavaScript they are ordinary links. Each `<a>` carries `data-discover="true"`, as `<Link>` renders it, so the
// router learns its route ahead (lazy route discovery) and the prefetch knows what to fetch.
import { useState, type ComponentPropsWithoutRef, type MouseEvent, type SyntheticEvent } from "react";
import { PrefetchPageLinks, useNavigate } from "react-router";

/** The in-app path of the `<a>` an event came from, when a client navigation may take it over. */
function appPathOf(event: SyntheticEvent): string | null {
  const anchor = event.target instanceof Element ? event.target.closest("a[href]") : null;
  if (!(anchor instanceof HTMLAnchorElement) || anchor.target || anchor.hasAttribute("download")) return null;
  const url = new URL(anchor.href);
  return url.origin === window.location.origin ? url.pathname + url.search + url.hash : null;
}

const isPlainClick = (event: MouseEvent) =>
  event.button === 0 && !event.defaultPrevented && !event.metaKey && !event.altKey && !event.ctrlKey && !event.shiftKey;

/** An `<ol>` of plain links, each navigated on the client and prefetched on intent. */
export function LinkList({ children, ...props }: ComponentPropsWithoutRef<"ol">) {
  const navigate = useNavigate();
  const [intent, setIntent] = useState<string | null>(null);
  const onIntent = (event: SyntheticEvent) => {
    const path = appPathOf(event);
    if (path) setIntent(path);
  };
  return (
    <>
      {/* eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions -- delegation: the clicks are its links' own (Enter on a link is a click) */}
      <ol
        {...props}
        onClick={(event) => {
          if (!isPlainClick(event)) return;
          const path = appPathOf(event);
          if (!path) return;
          event.preventDefault();
          void navigate(path);
        }}
        onPointerOver={onIntent}
        onFocus={onIntent}
        onTouchStart={onIntent}
      >
        {children}
      </ol>
      {intent ? <PrefetchPageLinks page={intent} /> : null}
    </>
  );
}
