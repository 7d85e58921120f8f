// "Resumo da conversa": a plain page (no JavaScript needed) — the turns and live minutes, the corrections found in
// the conversation beside their right forms, and the mistakes it brought back, marked when the learner used them right.
import { Link } from "react-router";
import { buttonVariants } from "~/components/button";
import { ArrowLeftIcon } from "~/components/icons";
import type { ConversationReport as Report } from "../report.server";
import { KIND_LABELS, minutesLabel, NOTEBOOK_TEXTS, REPORT_TEXTS as T, timesLabel, turnsLabel } from "../texts";

const card = "rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5 dark:bg-night-900 dark:ring-night-700";
const muted = "text-slate-600 dark:text-slate-300";
const label = `text-xs font-semibold uppercase tracking-wide ${muted}`;

export function ConversationReport({ report }: { report: Report }) {
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-6 sm:px-6 sm:py-10" data-testid="conversation-report">
      <div className="flex items-center gap-2">
        <Link
          to={report.backTo}
          aria-label={report.backLabel}
          className="rounded-full p-2 text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-night-800"
        >
          <ArrowLeftIcon size={20} />
        </Link>
        <div className="min-w-0">
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{T.title}</h1>
          <p className={`truncate ${muted}`}>{report.title}</p>
        </div>
      </div>

      {report.turns === 0 ? (
        <p className={`mt-6 ${card} ${muted}`}>{T.empty}</p>
      ) : (
        <>
          <dl className="mt-6 grid grid-cols-2 gap-3">
            <div className={card}>
              <dt className={label}>{T.turns}</dt>
              <dd className="mt-1 text-2xl font-bold" data-testid="report-turns">
                {turnsLabel(report.turns)}
              </dd>
            </div>
            <div className={card}>
              <dt className={label}>{T.liveMinutes}</dt>
              <dd className="mt-1 text-2xl font-bold" data-testid="report-live-minutes">
                {minutesLabel(report.liveMinutes)}
              </dd>
            </div>
          </dl>

          <section aria-labelledby="report-corrections" className="mt-8">
            <h2 id="report-corrections" className="text-lg font-semibold">
              {T.corrections} <span className={`text-sm font-normal ${muted}`}>({report.corrections.length})</span>
            </h2>
            {report.corrections.length === 0 ? (
              <p className={`mt-3 ${card} ${muted}`}>{T.noCorrections}</p>
            ) : (
              <ul className="mt-3 space-y-3">
                {report.corrections.map((correction) => (
                  <li key={correction.entryId} className={card} data-testid="report-correction">
                    <p className={label}>{KIND_LABELS[correction.kind]}</p>
                    <dl className="mt-2 grid gap-3 sm:grid-cols-2">
                      <div>
                        <dt className={label}>{NOTEBOOK_TEXTS.youSaid}</dt>
                        <dd className="mt-1 text-rose-800 line-through decoration-rose-400 dark:text-rose-200" data-testid="report-wrong">
                          {correction.wrong}
                        </dd>
                      </div>
                      <div>
                        <dt className={label}>{NOTEBOOK_TEXTS.correct}</dt>
                        <dd className="mt-1 font-semibold text-emerald-800 dark:text-emerald-200" data-testid="report-right">
                          {correction.right}
                        </dd>
                      </div>
                    </dl>
                    <p className="mt-3 text-sm">{correction.explanation}</p>
                    <p className={`mt-2 text-sm ${muted}`}>
                      {correction.href ? (
                        <Link to={correction.href} className="underline underline-offset-2">
                          {T.inConversation}
                        </Link>
                      ) : null}
                      {correction.href ? " · " : null}
                      {timesLabel(correction.times)}
                    </p>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </>
      )}

      {report.focus.length > 0 ? (
        <section aria-labelledby="report-focus" className="mt-8">
          <h2 id="report-focus" className="text-lg font-semibold">
            {T.focus}
          </h2>
          <p className={`mt-1 text-sm ${muted}`}>{T.focusIntro}</p>
          <ul className="mt-3 space-y-2">
            {report.focus.map((item) => (
              <li
                key={item.entryId}
                className={`${card} flex flex-wrap items-center justify-between gap-2`}
                data-testid="report-focus"
                data-used-right={item.usedRight}
              >
                <span>
                  <span className="font-semibold">{item.right}</span>{" "}
                  <span className={`text-sm ${muted}`}>
                    ({NOTEBOOK_TEXTS.youSaid.toLowerCase()} “{item.wrong}”)
                  </span>
                </span>
                {item.usedRight ? (
                  <span className="rounded-full bg-emerald-100 px-3 py-1 text-sm font-semibold text-emerald-900 dark:bg-emerald-400/15 dark:text-emerald-100">
                    {item.href ? (
                      <Link to={item.href} className="underline underline-offset-2">
                        {T.usedRight}
                      </Link>
                    ) : (
                      T.usedRight
                    )}
                  </span>
                ) : (
                  <span className={`text-sm ${muted}`}>{T.notYet}</span>
                )}
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <div className="mt-8 flex flex-wrap gap-2">
        {report.conversationHref ? (
          <Link to={report.conversationHref} className={buttonVariants({ variant: "primary" })}>
            {T.backToConversation}
          </Link>
        ) : null}
        <Link to="/caderno" className={buttonVariants({ variant: "secondary" })}>
          {T.notebook}
        </Link>
        <Link to={report.backTo} className={buttonVariants({ variant: "ghost" })}>
          {report.backLabel}
        </Link>
      </div>
    </div>
  );
}
