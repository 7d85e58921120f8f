// /caderno: the learner's mistakes by kind — what they said beside the right form, the explanation, where and how
// often, and the entry's state — each with two plain forms (work without JavaScript).
import { Form, Link } from "react-router";
import { Button } from "~/components/button";
import type { NotebookEntryView, NotebookPageData } from "../page.server";
import { KIND_LABELS, NOTEBOOK_TEXTS as T, SOURCE_LABELS, STATE_LABELS, timesLabel } from "../texts";

const card = "rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5 dark:bg-night-900 dark:ring-night-700";
const muted = "text-slate-600 dark:text-slate-300";

export function NotebookPage({ data }: { data: NotebookPageData }) {
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-6 sm:px-6 sm:py-10">
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{T.title}</h1>
      <p className={`mt-1 ${muted}`}>{T.subtitle}</p>
      {data.total === 0 ? (
        <p className={`mt-6 ${card} ${muted}`}>{T.empty}</p>
      ) : (
        <div className="mt-6 space-y-8">
          {data.groups.map((group) => (
            <section key={group.kind} aria-labelledby={`caderno-${group.kind}`}>
              <h2 id={`caderno-${group.kind}`} className="text-lg font-semibold">
                {KIND_LABELS[group.kind]} <span className={`text-sm font-normal ${muted}`}>({group.entries.length})</span>
              </h2>
              <ul className="mt-3 space-y-3">
                {group.entries.map((entry) => (
                  <Entry key={entry.id} entry={entry} />
                ))}
              </ul>
            </section>
          ))}
        </div>
      )}
    </div>
  );
}

function Entry({ entry }: { entry: NotebookEntryView }) {
  return (
    <li className={card} data-testid="notebook-entry">
      {entry.kind === "pronunciation" ? (
        <dl>
          <dt className={`text-xs font-semibold uppercase tracking-wide ${muted}`}>{T.word}</dt>
          <dd className="mt-1 font-semibold" data-testid="notebook-right">
            {entry.right}
          </dd>
        </dl>
      ) : (
        <dl className="grid gap-3 sm:grid-cols-2">
          <div>
            <dt className={`text-xs font-semibold uppercase tracking-wide ${muted}`}>{T.youSaid}</dt>
            <dd className="mt-1 text-rose-800 line-through decoration-rose-400 dark:text-rose-200" data-testid="notebook-wrong">
              {entry.wrong}
            </dd>
          </div>
          <div>
            <dt className={`text-xs font-semibold uppercase tracking-wide ${muted}`}>{T.correct}</dt>
            <dd className="mt-1 font-semibold text-emerald-800 dark:text-emerald-200" data-testid="notebook-right">
              {entry.right}
            </dd>
          </div>
        </dl>
      )}
      <p className="mt-3 text-sm">{entry.explanation}</p>
      <p className={`mt-2 text-sm ${muted}`}>
        {entry.where ? (
          <Link to={entry.where.href} className="underline underline-offset-2">
            {entry.where.label}
          </Link>
        ) : (
          SOURCE_LABELS[entry.source]
        )}{" "}
        · {timesLabel(entry.count)} · <span data-testid="notebook-state">{STATE_LABELS[entry.state]}</span>
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        {entry.state !== "mastered" && <EntryForm entryId={entry.id} intent="master" label={T.master} variant="secondary" />}
        <EntryForm entryId={entry.id} intent="dismiss" label={T.dismiss} variant="ghost" />
      </div>
    </li>
  );
}

function EntryForm(props: { entryId: string; intent: "master" | "dismiss"; label: string; variant: "secondary" | "ghost" }) {
  return (
    <Form method="post">
      <input type="hidden" name="entryId" value={props.entryId} />
      <Button type="submit" name="intent" value={props.intent} variant={props.variant} size="sm">
        {props.label}
      </Button>
    </Form>
  );
}
