// "Instalar o app" of /config/app, on the shared install state of features/pwa: the browser's own
// install dialog where it offers one, the iOS steps on iPhone/iPad, "App já instalado" when running as
// the installed app. Without JavaScript (and before hydration) it shows the manual steps for both.
import { Button } from "~/components/button";
import { CheckCircleIcon } from "~/components/icons";
import { useInstall } from "~/features/pwa";
import { useHydrated } from "~/lib/use-hydrated";

const IOS_STEPS = "No iPhone ou iPad (Safari): toque em Compartilhar e depois em Adicionar à Tela de Início.";
const OTHER_STEPS = "No Android ou no computador (Chrome, Edge): abra o menu do navegador e escolha Instalar app.";

export function AppInstall() {
  const hydrated = useHydrated();
  const { canInstall, installed, isIOS, promptInstall } = useInstall();
  let body;
  if (hydrated && installed) {
    body = (
      <p role="status" className="flex items-center gap-2 text-sm font-medium text-emerald-800 dark:text-emerald-200">
        <CheckCircleIcon size={18} />
        App já instalado neste dispositivo.
      </p>
    );
  } else if (hydrated && canInstall) {
    body = (
      <>
        <p className="mb-3 text-sm text-slate-700 dark:text-slate-300">
          Adicione o Nika à sua tela inicial para acessar mais rápido, mesmo com internet lenta.
        </p>
        <Button onClick={() => void promptInstall()}>Instalar app</Button>
      </>
    );
  } else {
    const steps = !hydrated ? [IOS_STEPS, OTHER_STEPS] : isIOS ? [IOS_STEPS] : [OTHER_STEPS, IOS_STEPS];
    body = (
      <ul className="list-disc space-y-1 pl-5 text-sm text-slate-700 dark:text-slate-300" data-testid="install-steps">
        {steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ul>
    );
  }
  return (
    <section aria-labelledby="instalar-titulo">
      <h2 id="instalar-titulo" className="mb-2 text-lg font-semibold">
        Instalar o app
      </h2>
      {body}
    </section>
  );
}
