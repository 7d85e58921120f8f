import type { ReactNode } from "react";
import { Link } from "react-router";
import { buttonVariants } from "~/components/button";
import { ArrowLeftIcon, SparkleIcon } from "~/components/icons";

/** Placeholder for pages that later issues fill in. */
export function ComingSoon({
  feature,
  description = "Estamos preparando esta área com carinho. Volte em breve!",
  backTo = "/",
  backLabel = "Voltar ao início",
  children,
}: {
  feature: string;
  description?: string;
  backTo?: string;
  backLabel?: string;
  children?: ReactNode;
}) {
  return (
    <div className="mx-auto flex min-h-[70dvh] max-w-lg flex-col items-center justify-center px-6 py-16 text-center">
      <div className="mb-6 flex size-16 items-center justify-center rounded-2xl bg-gradient-to-br from-indigo-500 to-violet-600 text-white shadow-lg shadow-indigo-500/30">
        <SparkleIcon size={30} />
      </div>
      <p className="text-sm font-semibold tracking-wide text-indigo-700 uppercase dark:text-indigo-300">{feature}</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight">Em breve</h1>
      <p className="mt-3 text-slate-600 dark:text-slate-300">{description}</p>
      <Link to={backTo} className={buttonVariants({ size: "lg", className: "mt-8" })}>
        <ArrowLeftIcon size={18} />
        {backLabel}
      </Link>
      {children}
    </div>
  );
}
