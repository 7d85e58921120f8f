// Building blocks of the auth pages: the card, the text-link style, the way back to sign-in and a
// delayed redirect. Fields, notices and buttons are the app's (~/components).
import { useEffect, type ReactNode } from "react";
import { Link, useNavigate } from "react-router";
import { NikaLogo } from "~/components/icons";

export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: ReactNode; children: ReactNode }) {
  return (
    <main id="conteudo" className="flex min-h-dvh items-center justify-center px-4 py-10">
      <div className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-xl sm:p-8 dark:border-night-800 dark:bg-night-900">
        <p className="mb-6 flex items-center gap-2 text-lg font-bold text-indigo-700 dark:text-indigo-300">
          <NikaLogo size={36} />
          Nika
        </p>
        <h1 className="text-2xl font-bold text-slate-900 dark:text-white">{title}</h1>
        {subtitle ? <div className="mt-2 text-sm text-slate-600 dark:text-slate-300">{subtitle}</div> : null}
        <div className="mt-6">{children}</div>
      </div>
    </main>
  );
}

export const linkClass =
  "font-medium text-indigo-700 underline-offset-2 hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 rounded dark:text-indigo-300";

/** The centred "Voltar para o login" link at the foot of an auth card. */
export function BackToSignIn() {
  return (
    <p className="mt-6 text-center text-sm">
      <Link className={linkClass} to="/signin">
        Voltar para o login
      </Link>
    </p>
  );
}

/**
 * Goes to `to` after `seconds` (spec: 2 s after a confirmation or a reset). With JavaScript a timer
 * navigates; without it a meta refresh inside <noscript> does the same.
 */
export function DelayedRedirect({ to, seconds }: { to: string; seconds: number }) {
  const navigate = useNavigate();
  useEffect(() => {
    const timer = setTimeout(() => navigate(to, { replace: true }), seconds * 1000);
    return () => clearTimeout(timer);
  }, [to, seconds, navigate]);
  return (
    <noscript>
      <meta httpEquiv="refresh" content={`${seconds};url=${to}`} />
    </noscript>
  );
}
