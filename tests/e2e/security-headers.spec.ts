// Security headers (decision 0011): every worker response carries them; pages get a nonce-based CSP
// whose nonce is on every inline script, and the app's own pages load without a CSP violation.
// Self-contained on purpose (only @playwright/test): it uses the seeded learner account.
import { expect, test, type APIResponse, type Page, type TestInfo } from "@playwright/test";

const LEARNER = { email: "aluno@nika.local", password: "NikaAluno123" };
const jsEnabled = (testInfo: TestInfo) => testInfo.project.name === "js";
const waitForHydration = (page: Page) => page.locator("html[data-hydrated]").waitFor({ state: "attached" });

async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Senha").fill(password);
  await page.getByRole("button", { name: "Entrar" }).click();
}

const COMMON = {
  "permissions-policy": "microphone=(self), camera=(), geolocation=(), payment=()",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  "cross-origin-opener-policy": "same-origin",
};
const NON_HTML_CSP = "default-src 'none'; frame-ancestors 'none'";

function expectCommonHeaders(response: APIResponse) {
  const headers = response.headers();
  for (const [name, value] of Object.entries(COMMON)) expect(headers[name], name).toBe(value);
  // The e2e worker runs with APP_ENV=development: no HSTS on localhost.
  expect(headers["strict-transport-security"]).toBeUndefined();
}

/** The page policy's directives, checked, and its nonce. */
function pagePolicy(response: APIResponse): string {
  const csp = response.headers()["content-security-policy"] ?? "";
  const directives = new Map(csp.split(/;\s*/).map((d) => [d.split(" ")[0]!, d.split(" ").slice(1).join(" ")]));
  const nonce = /^'self' 'nonce-([A-Za-z0-9+/=]+)'$/.exec(directives.get("script-src") ?? "")?.[1];
  expect(nonce, `script-src of ${csp}`).toBeTruthy();
  expect(directives.get("default-src")).toBe("'self'");
  expect(directives.get("object-src")).toBe("'none'");
  expect(directives.get("frame-ancestors")).toBe("'none'");
  expect(directives.get("base-uri")).toBe("'self'");
  // Forms may also lead to the checkout and consent pages, here the fake upstream's (e2e.vars: Stripe, Google).
  expect(directives.get("form-action")).toBe("'self' http://127.0.0.1:4010");
  expect(directives.get("connect-src")).toBe(`'self' ws://${new URL(response.url()).host}`);
  expect(directives.get("frame-src")).toContain("https://www.youtube-nocookie.com");
  expect(directives.get("frame-src")).toContain("https://player.vimeo.com");
  expect(csp).not.toContain("unsafe-eval");
  return nonce!;
}

/** Every <script> of the HTML carries the nonce; returns how many there are. */
async function expectNoncedScripts(response: APIResponse, nonce: string) {
  const html = await response.text();
  const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]!);
  expect(scripts.length).toBeGreaterThan(1);
  for (const attributes of scripts) expect(attributes, `<script${attributes}>`).toContain(`nonce="${nonce}"`);
}

test("a page: every security header, and a nonce on each inline script", async ({ request }) => {
  const response = await request.get("/signin");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("text/html");
  expectCommonHeaders(response);
  await expectNoncedScripts(response, pagePolicy(response));
});

test("the nonce is new on every request", async ({ request }) => {
  const [a, b] = await Promise.all([request.get("/signin"), request.get("/signin")]);
  const [nonceA, nonceB] = [pagePolicy(a), pagePolicy(b)];
  expect(nonceA).not.toBe(nonceB);
  await expectNoncedScripts(a, nonceA);
  await expectNoncedScripts(b, nonceB);
});

test("an error page (404) gets the page headers too", async ({ request }) => {
  const response = await request.get("/nao-existe");
  expect(response.status()).toBe(404);
  expectCommonHeaders(response);
  await expectNoncedScripts(response, pagePolicy(response));
});

test("resource routes, data requests and redirects get the restrictive policy", async ({ request }) => {
  const responses = {
    "GET /api/errors": await request.get("/api/errors"),
    "GET /resources/lessons/…/live (no upgrade)": await request.get("/resources/lessons/00000000-0000-4000-8000-000000000000/live"),
    "GET /signin.data": await request.get("/signin.data"),
    "GET / (signed out)": await request.get("/", { maxRedirects: 0 }),
    "GET /media/… (missing)": await request.get("/media/modules/nao-existe.png"),
  };
  expect(responses["GET /api/errors"].status()).toBe(405);
  expect(responses["GET /resources/lessons/…/live (no upgrade)"].status()).toBeGreaterThanOrEqual(400); // 426, or 401 signed out
  expect(responses["GET / (signed out)"].status()).toBe(302);
  for (const [name, response] of Object.entries(responses)) {
    expect(response.headers()["content-security-policy"], name).toBe(NON_HTML_CSP);
    expectCommonHeaders(response);
  }
});

test("static files, served by the assets layer before the worker, are not sniffed either (public/_headers)", async ({ request }) => {
  const html = await (await request.get("/signin")).text();
  const bundle = /<script[^>]*\bsrc="(\/assets\/[^"]+\.js)"/.exec(html)?.[1] ?? /href="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  expect(bundle, "a built script of the page").toBeTruthy();
  for (const path of ["/manifest.webmanifest", "/sw.js", "/favicon.svg", "/offline.html", bundle!]) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(200);
    // The worker would add a Content-Security-Policy: none here shows the file came from the assets layer.
    expect(response.headers()["content-security-policy"], path).toBeUndefined();
    expect(response.headers()["x-content-type-options"], path).toBe("nosniff");
  }
});

/** Collects CSP violations: the page's own events (with JS) and the browser's console reports. */
function watchViolations(page: Page) {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => {
    if (/Content Security Policy/i.test(error.message)) violations.push(`pageerror: ${error.message}`);
  });
  return {
    violations,
    async install() {
      await page.addInitScript(() => {
        const seen: string[] = ((window as unknown as { __cspViolations: string[] }).__cspViolations = []);
        document.addEventListener("securitypolicyviolation", (event) =>
          seen.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`),
        );
      });
    },
    async collect() {
      if (jsEnabled(test.info())) {
        const seen = await page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? []);
        violations.push(...seen.map((v) => `event: ${v}`));
      }
      return violations;
    },
  };
}

test("the sign-in page and the home page load and hydrate without any CSP violation", async ({ page }, testInfo) => {
  const watch = watchViolations(page);
  await watch.install();
  const response = await page.goto("/signin");
  const nonce = /'nonce-([^']+)'/.exec(response!.headers()["content-security-policy"] ?? "")?.[1];
  expect(nonce).toBeTruthy();
  if (jsEnabled(testInfo)) {
    await waitForHydration(page);
    // The browser hides the nonce attribute, but each script element still knows its nonce.
    const nonces = await page.evaluate(() => [...document.scripts].filter((s) => !s.src).map((s) => s.nonce));
    expect(nonces.length).toBeGreaterThan(1);
    expect(new Set(nonces)).toEqual(new Set([nonce]));
  }
  expect(await watch.collect()).toEqual([]);

  await signIn(page, LEARNER.email, LEARNER.password);
  await expect(page).toHaveURL(/\/$/);
  if (jsEnabled(testInfo)) await waitForHydration(page);
  await page.reload();
  if (jsEnabled(testInfo)) await waitForHydration(page);
  await expect(page.getByRole("navigation", { name: "Navegação principal" })).toBeVisible();
  expect(await watch.collect()).toEqual([]);
});
