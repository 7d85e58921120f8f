// The flash toast cookie is signed with SESSION_SECRET: the root loader shows a toast this app wrote,
// and drops (and clears) one written by anybody else — forged, tampered with, signed with another
// secret or not even well-formed — without failing the page.
import { beforeAll, describe, expect, it } from "vitest";
import * as root from "~/root";
import type { Database } from "~/server/db.server";
import { redirectWithToast, toastHeader, type Toast } from "~/server/toast.server";
import { args, call, contextFor, CookieJar, createTestDb, TEST_ENV } from "./harness";

let db: Database;
beforeAll(async () => ({ db } = await createTestDb()));

const TOAST: Toast = { type: "success", title: "Perfil atualizado", description: "Tudo certo." };

/** The root loader of any page, with `cookie` as the browser's Cookie header. */
async function pageWith(cookie: string) {
  const req = new Request("http://nika.test/", { headers: { Cookie: cookie } });
  const outcome = await call<{ toast: (Toast & { id: string }) | null }>(() => root.loader(args(req, contextFor(db))));
  const cleared = outcome.headers.getSetCookie().some((line) => /^nika_toast=;.*Max-Age=0/i.test(line));
  return { status: outcome.status, toast: outcome.data.toast, cleared };
}

/** The `nika_toast=…` pair a Set-Cookie line carries. */
const pairOf = (setCookie: string) => setCookie.split(";")[0]!;
const base64 = (value: unknown) => encodeURIComponent(Buffer.from(JSON.stringify(value)).toString("base64"));

describe("the flash toast cookie", () => {
  it("shows a toast the app wrote after a redirect, once", async () => {
    const redirected = await redirectWithToast(TEST_ENV, "/config", TOAST);
    const jar = new CookieJar();
    jar.absorb(redirected.headers);
    const page = await pageWith(jar.header());
    expect(page).toMatchObject({ status: 200, toast: { ...TOAST, id: expect.any(String) }, cleared: true });
  });

  it("shows nothing for a toast cookie nobody signed (what any page of the domain could set)", async () => {
    const page = await pageWith(`nika_toast=${base64({ type: "error", title: "Sua conta será excluída", description: "Ligue para 0800…" })}`);
    expect(page).toEqual({ status: 200, toast: null, cleared: true });
  });

  it("shows nothing for a genuine cookie whose text was changed, or one signed with another secret", async () => {
    const genuine = pairOf(await toastHeader(TEST_ENV, TOAST));
    const signature = genuine.slice(genuine.lastIndexOf("."));
    const tampered = `nika_toast=${base64({ ...TOAST, title: "Pagamento recusado" })}${signature}`;
    expect(await pageWith(tampered)).toEqual({ status: 200, toast: null, cleared: true });
    const otherSecret = pairOf(await toastHeader({ ...TEST_ENV, SESSION_SECRET: "outro-segredo" }, TOAST));
    expect(await pageWith(otherSecret)).toEqual({ status: 200, toast: null, cleared: true });
  });

  it("shows nothing, and does not fail, for a cookie whose signature is not even base64", async () => {
    expect(await pageWith("nika_toast=abc.!!!")).toEqual({ status: 200, toast: null, cleared: true });
    expect(await pageWith("nika_toast=%E0%A4%A")).toEqual({ status: 200, toast: null, cleared: true });
  });

  it("shows nothing for a signed value that is not a toast", async () => {
    const signedOther = pairOf(await toastHeader(TEST_ENV, { type: "warning", title: 1 } as unknown as Toast));
    expect(await pageWith(signedOther)).toEqual({ status: 200, toast: null, cleared: true });
  });

  it("is Secure in production, like the session cookie, and not on plain-HTTP development", async () => {
    expect(await toastHeader({ ...TEST_ENV, APP_ENV: "production" }, TOAST)).toMatch(/; Secure/i);
    expect(await toastHeader(TEST_ENV, TOAST)).not.toMatch(/; Secure/i);
    const redirected = await redirectWithToast({ ...TEST_ENV, APP_ENV: "production" }, "/config", TOAST);
    expect(redirected.headers.getSetCookie().join("\n")).toMatch(/^nika_toast=.*; Secure/im);
  });

  it("sets no cookie on a page without a toast", async () => {
    expect(await pageWith("tema=escuro")).toEqual({ status: 200, toast: null, cleared: false });
  });
});
