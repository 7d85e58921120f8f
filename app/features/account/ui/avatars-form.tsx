// Avatar choice of /config/app: a radio group of the 7 bundled avatars, 4 per row (spec §9), and a
// submit button — a plain form without JavaScript; with it, choosing an avatar submits at once.
import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { SubmitButton } from "~/components/button";
import { FieldError } from "~/components/forms";
import { AVATARS, avatarUrl } from "~/lib/avatars";
import { AVATAR_MESSAGES, type AvatarActionData } from "../avatars-schema";

const SAVE_DELAY_MS = 500;

export function AvatarPicker({ current, actionData }: { current: number; actionData: AvatarActionData | undefined }) {
  // With JS the form goes through a fetcher, so the page keeps its scroll and focus while saving.
  const fetcher = useFetcher<AvatarActionData>();
  const [selected, setSelected] = useState(current);
  useEffect(() => setSelected(current), [current]);
  // Arrow keys move through a radio group: only the avatar the learner stops on is saved.
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const reply = fetcher.data ?? actionData;
  const error = reply?.result.error?.avatar?.[0] ?? (reply ? AVATAR_MESSAGES.invalid : undefined);
  const busy = fetcher.state !== "idle";
  return (
    <section aria-labelledby="avatar-titulo">
      <h2 id="avatar-titulo" className="text-lg font-semibold">
        Avatar
      </h2>
      <p className="mt-1 mb-4 text-sm text-slate-700 dark:text-slate-300">Aparece no menu lateral e nos seus comentários.</p>
      <fetcher.Form method="post" className="max-w-md">
        <input type="hidden" name="intent" value="avatar" />
        <fieldset aria-describedby={error ? "avatar-error" : undefined}>
          <legend className="sr-only">Escolha seu avatar</legend>
          <div className="grid grid-cols-4 gap-3">
            {AVATARS.map((avatar) => (
              <label
                key={avatar.id}
                className="flex cursor-pointer flex-col items-center gap-1 rounded-xl border-2 border-transparent p-2 text-xs font-medium text-slate-700 hover:bg-slate-100 has-checked:border-indigo-600 has-checked:bg-indigo-50 has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-indigo-500 dark:text-slate-200 dark:hover:bg-night-800 dark:has-checked:border-indigo-300 dark:has-checked:bg-indigo-400/15"
              >
                <input
                  type="radio"
                  name="avatar"
                  value={avatar.id}
                  checked={selected === avatar.id}
                  onChange={(event) => {
                    const form = event.currentTarget.form;
                    setSelected(avatar.id);
                    window.clearTimeout(timer.current);
                    timer.current = window.setTimeout(() => fetcher.submit(form, { method: "post", preventScrollReset: true }), SAVE_DELAY_MS);
                  }}
                  className="sr-only"
                  data-testid={`avatar-option-${avatar.id}`}
                />
                <img src={avatarUrl(avatar.id)} alt="" width={56} height={56} className="size-12 sm:size-14" />
                <span>{avatar.label}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <FieldError id="avatar" error={error} />
        <SubmitButton className="mt-4" variant="secondary" pending={busy} pendingText="Salvando...">
          Salvar avatar
        </SubmitButton>
      </fetcher.Form>
    </section>
  );
}
