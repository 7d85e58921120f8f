// The browser side of the Content-Security-Policy (decision 0011; server.ts sends the policy).
// - The request's nonce, for inline scripts rendered by React (root.tsx): entry.server.tsx provides
//   it; in the browser it is "" (browsers hide nonces from the DOM, and the scripts that needed it
//   have already run).
// - zod's JIT probe (`new Function("")`) is refused by our script-src (no 'unsafe-eval') and reported
//   as a violation although zod catches it; it then parses without JIT anyway. Say so up front. This
//   module is imported by root.tsx, so it runs before any form is validated. zod keeps its settings
//   on `globalThis.__zod_globalConfig` (what zod/v4/core `config()` returns, created by whichever
//   loads first); setting it there keeps zod itself out of pages that never validate anything.
import { createContext, useContext, type ReactNode } from "react";

const zodGlobal = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
(zodGlobal.__zod_globalConfig ??= {}).jitless = true;

const NonceContext = createContext("");

export function NonceProvider({ value, children }: { value: string; children: ReactNode }) {
  return <NonceContext.Provider value={value}>{children}</NonceContext.Provider>;
}

export const useNonce = () => useContext(NonceContext);
