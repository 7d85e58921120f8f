// The e-mail change's confirmation form (the dialog's content with JavaScript, a page section without).
import { Form, Link } from "react-router";
import { buttonVariants, SubmitButton } from "~/components/button";

export function EmailConfirmForm({ email, onCancel }: { email: string; onCancel?: () => void }) {
  return (
    <Form method="post" preventScrollReset>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-200">
        Enviaremos um link de confirmação para <strong>{email}</strong>. O email atual continua valendo até você abrir o link.
      </p>
      <input type="hidden" name="intent" value="email" />
      <input type="hidden" name="email" value={email} />
      <input type="hidden" name="confirmed" value="1" />
      <div className="mt-3 flex gap-2">
        <SubmitButton size="sm" pendingText="Enviando...">
          Confirmar e enviar link
        </SubmitButton>
        {onCancel ? (
          <button type="button" onClick={onCancel} className={buttonVariants({ variant: "secondary", size: "sm" })}>
            Cancelar
          </button>
        ) : (
          <Link to="/config" className={buttonVariants({ variant: "secondary", size: "sm" })} preventScrollReset>
            Cancelar
          </Link>
        )}
      </div>
    </Form>
  );
}
