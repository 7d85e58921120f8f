// /admin/users: the search form (GET, so it works without JavaScript and the URL can be shared), the
// results and the pagination links.
import { Form, Link } from "react-router";
import { buttonVariants } from "~/components/button";
import { cn } from "~/components/cn";
import { inputClass, labelClass } from "../styles";
import type { UserListItem } from "../users.server";

type Props = { data: { q: string; items: UserListItem[]; total: number; page: number; pages: number } };

const pageLink = (q: string, page: number) => `/admin/users?${new URLSearchParams({ ...(q ? { q } : {}), page: String(page) })}`;

export function UserSearch({ data }: Props) {
  const { q, items, total, page, pages } = data;
  return (
    <section aria-labelledby="admin-users-title">
      <h2 id="admin-users-title" className="text-xl font-bold">
        Usuários
      </h2>
      <Form method="get" action="/admin/users" className="mt-4 flex flex-wrap items-end gap-2" role="search">
        <div className="min-w-64 flex-1">
          <label htmlFor="admin-users-q" className={labelClass}>
            Buscar por nome ou e-mail
          </label>
          <input id="admin-users-q" name="q" type="search" defaultValue={q} maxLength={254} className={inputClass} />
        </div>
        <button type="submit" className={buttonVariants()}>
          Buscar
        </button>
      </Form>
      <p className="mt-4 text-sm text-slate-700 dark:text-slate-300" role="status">
        {total === 0
          ? "Nenhum usuário encontrado."
          : `${total.toLocaleString("pt-BR")} ${total === 1 ? "usuário" : "usuários"} · página ${page} de ${pages}`}
      </p>
      {items.length > 0 ? (
        <ul className="mt-3 divide-y divide-slate-200 rounded-xl border border-slate-200 dark:divide-night-700 dark:border-night-700">
          {items.map((user) => (
            <li key={user.id} className="flex flex-wrap items-center justify-between gap-2 p-3">
              <div className="min-w-0">
                <Link to={`/admin/users/${user.id}`} className="font-semibold text-indigo-700 underline dark:text-indigo-300">
                  {user.name || "Usuário"}
                </Link>
                <p className="truncate text-sm text-slate-600 dark:text-slate-400">{user.email}</p>
              </div>
              <div className="flex flex-wrap gap-2 text-xs font-semibold">
                {user.isAdmin ? <Badge tone="indigo">Admin</Badge> : null}
                {user.accountType === "blocked" ? <Badge tone="red">Bloqueado</Badge> : null}
                <Badge tone="slate">{user.monthlyCredits} créditos</Badge>
              </div>
            </li>
          ))}
        </ul>
      ) : null}
      {pages > 1 ? (
        <nav aria-label="Páginas" className="mt-4 flex gap-2">
          {page > 1 ? (
            <Link to={pageLink(q, page - 1)} className={buttonVariants({ variant: "secondary" })}>
              Anterior
            </Link>
          ) : null}
          {page < pages ? (
            <Link to={pageLink(q, page + 1)} className={buttonVariants({ variant: "secondary" })}>
              Próxima
            </Link>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}

export function Badge({ tone, children }: { tone: "indigo" | "red" | "slate" | "amber"; children: React.ReactNode }) {
  const tones = {
    indigo: "bg-indigo-100 text-indigo-900 dark:bg-indigo-950 dark:text-indigo-100",
    red: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100",
    slate: "bg-slate-100 text-slate-900 dark:bg-night-800 dark:text-slate-100",
    amber: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100",
  };
  return <span className={cn("rounded-full px-2 py-0.5", tones[tone])}>{children}</span>;
}
