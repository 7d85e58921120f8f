// The page behind a signed link in a mail (the reminders: stop them, confirm them): GET shows one button — link
// scanners open links, so nothing changes before the POST — then what the POST did, or why the link is no good.
import { Form, Link } from "react-router";
import { SubmitButton } from "~/components/button";
import { NoticeBox } from "~/components/notice";
import { AuthCard, linkClass } from "./parts";

export type SignedLinkResult = { state: "ready"; token: string } | { state: "invalid"; message: string } | { state: "done" };

type Texts = {
  ready: { title: string; subtitle: string; button: string; pending: string };
  done: { title: string; notice: string; description: string };
  invalidTitle: string;
};

export function SignedLinkPage({ result, path, texts }: { result: SignedLinkResult; path: string; texts: Texts }) {
  if (result.state === "done") {
    return (
      <AuthCard title={texts.done.title}>
        <NoticeBox notice={{ tone: "success", title: texts.done.notice, description: texts.done.description }} />
        <Link className={linkClass} to="/">
          Ir para a Nika
        </Link>
      </AuthCard>
    );
  }
  if (result.state === "invalid") {
    return (
      <AuthCard title={texts.invalidTitle}>
        <NoticeBox notice={{ tone: "error", title: result.message }} />
        <Link className={linkClass} to="/config">
          Ir para Configurações
        </Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={texts.ready.title} subtitle={texts.ready.subtitle}>
      <Form method="post" action={`${path}?token=${encodeURIComponent(result.token)}`}>
        <SubmitButton size="lg" className="w-full" pendingText={texts.ready.pending}>
          {texts.ready.button}
        </SubmitButton>
      </Form>
    </AuthCard>
  );
}
