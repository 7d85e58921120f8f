// Destructive admin actions (remove a material, delete a flashcard) ask first. With JavaScript the
// action's POST form opens a confirmation dialog (ConfirmDialog, loaded on first hover or focus) and
// then sends the same form with `confirmed=yes`. Without JavaScript the form is sent as it is: the
// action redirects to a confirmation step that the page shows as a section (ConfirmSection), whose
// own form carries `confirmed=yes`.
import { lazy, Suspense, useRef, useState, type FormEvent, type ReactNode } from "react";
import { Form, Link, useSubmit } from "react-router";
import { buttonVariants } from "~/components/button";

const loadDialog = () => import("./ConfirmDialog");
const ConfirmDialog = lazy(loadDialog);

export type Confirmation = {
  /** "Remover arquivo" */
  heading: string;
  message: string;
  /** What is about to go (a file's title, a card's word). */
  subject: string;
  /** "Remover" */
  confirmLabel: string;
};

/** A form's fixed values (intent, ids) as hidden inputs. */
export const HiddenFields = ({ fields }: { fields: Record<string, string> }) =>
  Object.entries(fields).map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />);

/**
 * The POST form of a destructive action: `fields` as hidden inputs and `children` (its submit
 * button). With JavaScript, submitting asks in a dialog first.
 */
export function ConfirmForm({
  action,
  fields,
  confirmation,
  children,
}: {
  action: string;
  fields: Record<string, string>;
  confirmation: Confirmation;
  children: ReactNode;
}) {
  const submit = useSubmit();
  const formRef = useRef<HTMLFormElement>(null);
  const [confirming, setConfirming] = useState(false);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setConfirming(true);
  };
  const confirm = () => {
    const data = new FormData(formRef.current!);
    data.set("confirmed", "yes");
    setConfirming(false);
    submit(data, { method: "post", action, preventScrollReset: true });
  };

  return (
    <>
      <Form ref={formRef} method="post" action={action} onSubmit={onSubmit} onPointerEnter={loadDialog} onFocus={loadDialog} preventScrollReset>
        <HiddenFields fields={fields} />
        {children}
      </Form>
      {confirming ? (
        <Suspense fallback={null}>
          <ConfirmDialog open onOpenChange={setConfirming} {...confirmation} onConfirm={confirm} />
        </Suspense>
      ) : null}
    </>
  );
}

/**
 * The confirmation step without JavaScript: a page section (an alert dialog in the document flow)
 * whose form sends `fields` with `confirmed=yes`, and a way back (`cancelTo`).
 */
export function ConfirmSection({
  id,
  action,
  fields,
  cancelTo,
  confirmation,
}: {
  /** The section's element id (the action's redirect scrolls to it). */
  id: string;
  action: string;
  fields: Record<string, string>;
  cancelTo: string;
  confirmation: Confirmation;
}) {
  const headingId = `${id}-titulo`;
  return (
    <div
      id={id}
      role="alertdialog"
      aria-labelledby={headingId}
      className="mb-6 rounded-xl border border-rose-300 bg-rose-50 p-4 dark:border-rose-800 dark:bg-rose-950/40"
    >
      <h3 id={headingId} className="font-semibold">
        {confirmation.heading}
      </h3>
      <p className="mt-1 text-sm">{confirmation.message}</p>
      <p className="mt-2 truncate text-sm font-medium">{confirmation.subject}</p>
      <Form method="post" action={action} className="mt-4 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <HiddenFields fields={{ ...fields, confirmed: "yes" }} />
        <Link to={cancelTo} className={buttonVariants({ variant: "secondary" })}>
          Cancelar
        </Link>
        <button type="submit" className={buttonVariants({ variant: "danger" })}>
          {confirmation.confirmLabel}
        </button>
      </Form>
    </div>
  );
}
