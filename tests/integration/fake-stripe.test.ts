import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import Stripe from "stripe";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { freePort, startFakeUpstream } from "./fake-upstream";

// The fake upstream's Stripe (tests/fake-upstream/stripe.mjs) checked with the official `stripe` package: sessions
// are created and read over its fetch client, and every event the fake delivers must pass the package's own
// signature check — so the app's code meets the protocol it would meet in production.
const PORT = await freePort();
const API = `http://127.0.0.1:${PORT}`;
const SECRET = "whsec_test_fake";

type Received = { headers: IncomingHttpHeaders; body: string };
let received: Received[] = [];
let hookStatus = 200;
let receiver: Server;
let hookUrl = "";
let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.writeHead(hookStatus, { "Content-Type": "application/json" }).end('{"received":true}');
    });
  });
  const hookPort = await freePort();
  await new Promise<void>((resolve) => receiver.listen(hookPort, "127.0.0.1", resolve));
  hookUrl = `http://127.0.0.1:${hookPort}/api/stripe/webhook`;
  upstream = await startFakeUpstream(PORT, ["--stripe-webhook-url", hookUrl]);
});
afterAll(async () => {
  upstream?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});
beforeEach(async () => {
  received = [];
  hookStatus = 200;
  await fetch(`${API}/__stripe/reset`, { method: "POST" });
});

const client = (key = "sk_test_fake") =>
  new Stripe(key, { httpClient: Stripe.createFetchHttpClient(), host: "127.0.0.1", port: PORT, protocol: "http" });
const stripe = client();
const cryptoProvider = Stripe.createSubtleCryptoProvider();

const params: Stripe.Checkout.SessionCreateParams = {
  mode: "payment",
  line_items: [{ price_data: { currency: "brl", unit_amount: 990, product_data: { name: "50 créditos" } }, quantity: 1 }],
  metadata: { pack: "50" },
  client_reference_id: "user-1",
  customer_email: "ana@example.com",
  locale: "pt-BR",
  success_url: "http://app.test/config?tab=conta&checkout=success&session_id={CHECKOUT_SESSION_ID}",
  cancel_url: "http://app.test/comprar?checkout=cancel",
};

const post = async (path: string) => {
  const response = await fetch(`${API}${path}`, { method: "POST" });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};
const verify = (r: Received) => stripe.webhooks.constructEventAsync(r.body, String(r.headers["stripe-signature"]), SECRET, 300, cryptoProvider);
const rejection = (r: Received) =>
  verify(r).then(
    () => null,
    (e: unknown) => e,
  );
const session = (event: Stripe.Event) => event.data.object as Stripe.Checkout.Session;

describe("the Checkout Sessions API", () => {
  it("creates a session from the stripe package's form-encoded request and answers Stripe's session object", async () => {
    const s = await stripe.checkout.sessions.create(params);
    expect(s.id).toMatch(/^cs_test_\w+$/);
    expect(s).toMatchObject({
      object: "checkout.session",
      url: `${API}/stripe/checkout/${s.id}`,
      amount_total: 990,
      amount_subtotal: 990,
      currency: "brl",
      client_reference_id: "user-1",
      customer_email: "ana@example.com",
      metadata: { pack: "50" },
      mode: "payment",
      status: "open",
      payment_status: "unpaid",
      payment_intent: null,
      payment_method_types: ["card", "pix"],
      success_url: params.success_url,
      cancel_url: params.cancel_url,
      locale: "pt-BR",
      livemode: false,
    });
    expect(s.expires_at - s.created).toBe(24 * 60 * 60);
    expect(Math.abs(s.created - Date.now() / 1000)).toBeLessThan(5);
    expect(s.lastResponse.requestId).toMatch(/^req_/);

    const [recorded] = (await (await fetch(`${API}/__stripe/sessions`)).json()) as { id: string; request: unknown; idempotencyKey: string }[];
    expect(recorded.id).toBe(s.id);
    expect(recorded.idempotencyKey).toMatch(/^stripe-node-retry-/);
    expect(recorded.request).toEqual({
      mode: "payment",
      line_items: [{ price_data: { currency: "brl", unit_amount: "990", product_data: { name: "50 créditos" } }, quantity: "1" }],
      metadata: { pack: "50" },
      client_reference_id: "user-1",
      customer_email: "ana@example.com",
      locale: "pt-BR",
      success_url: params.success_url,
      cancel_url: params.cancel_url,
    });

    expect(await stripe.checkout.sessions.retrieve(s.id)).toMatchObject({ id: s.id, amount_total: 990, status: "open" });
    const items = await stripe.checkout.sessions.listLineItems(s.id);
    expect(items.data).toMatchObject([{ description: "50 créditos", quantity: 1, amount_total: 990, currency: "brl" }]);
  });

  it("sums several items and quantities; honours payment_method_types sent in the form", async () => {
    const body = new URLSearchParams({
      mode: "payment",
      success_url: "http://app.test/ok",
      "line_items[0][price_data][currency]": "BRL",
      "line_items[0][price_data][unit_amount]": "990",
      "line_items[0][price_data][product_data][name]": "A",
      "line_items[0][quantity]": "2",
      "line_items[1][price_data][currency]": "brl",
      "line_items[1][price_data][unit_amount]": "100",
      "line_items[1][price_data][product_data][name]": "B",
      "line_items[1][quantity]": "3",
      "payment_method_types[0]": "card",
    });
    const response = await fetch(`${API}/v1/checkout/sessions`, {
      method: "POST",
      headers: { Authorization: "Bearer sk_test_fake", "Content-Type": "application/x-www-form-urlencoded" },
      body,
    });
    expect(response.status).toBe(200);
    const s = (await response.json()) as Stripe.Checkout.Session;
    expect(s).toMatchObject({ amount_total: 2280, amount_subtotal: 2280, currency: "brl", payment_method_types: ["card"], cancel_url: null });
    const html = await (await fetch(s.url!)).text();
    expect(html).toContain("Pagar com cartão");
    expect(html).not.toContain("Pagar com Pix");
  });

  it("refuses what Stripe refuses, naming the param", async () => {
    const refused = async (p: Record<string, unknown>) => {
      const error = await stripe.checkout.sessions.create(p as Stripe.Checkout.SessionCreateParams).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      return (error as Stripe.errors.StripeError).param;
    };
    const { mode: _mode, ...noMode } = params;
    const { success_url: _success, ...noSuccess } = params;
    const { line_items: _items, ...noItems } = params;
    expect(await refused(noMode)).toBe("mode");
    expect(await refused(noSuccess)).toBe("success_url");
    expect(await refused(noItems)).toBe("line_items");
    expect(await refused({ ...params, line_items: [{ price_data: { unit_amount: 990, product_data: { name: "x" } }, quantity: 1 }] })).toBe(
      "line_items[0][price_data][currency]",
    );
    expect(await refused({ ...params, line_items: [{ price_data: { currency: "brl", product_data: { name: "x" } }, quantity: 1 }] })).toBe(
      "line_items[0][price_data][unit_amount]",
    );
    expect(await refused({ ...params, bogus: "1" })).toBe("bogus");
    expect(await (await fetch(`${API}/__stripe/sessions`)).json()).toEqual([]);
  });

  it("replays an Idempotency-Key with the same body and refuses it with another", async () => {
    const first = await stripe.checkout.sessions.create(params, { idempotencyKey: "buy-user-1-50" });
    const again = await stripe.checkout.sessions.create(params, { idempotencyKey: "buy-user-1-50" });
    expect(again.id).toBe(first.id);
    const error = await stripe.checkout.sessions.create({ ...params, metadata: { pack: "150" } }, { idempotencyKey: "buy-user-1-50" }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    const all = (await (await fetch(`${API}/__stripe/sessions`)).json()) as { idempotencyKey: string }[];
    expect(all.map((s) => s.idempotencyKey)).toEqual(["buy-user-1-50"]);
  });

  it("answers 404 resource_missing for an unknown session and 401 for a wrong key", async () => {
    const missing = await stripe.checkout.sessions.retrieve("cs_test_nope").then(
      () => null,
      (e: unknown) => e as Stripe.errors.StripeError,
    );
    expect(missing).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(missing).toMatchObject({ statusCode: 404, code: "resource_missing" });
    const denied = await client("sk_test_wrong")
      .checkout.sessions.create(params)
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(denied).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect((denied as Error).message).toMatch(/^Invalid API Key provided/);
    const anonymous = await fetch(`${API}/v1/checkout/sessions`, { method: "POST", body: "mode=payment" });
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { error: { type: string } }).error.type).toBe("invalid_request_error");
  });

  it("leaves the OpenAI paths under /v1 to the AI fake", async () => {
    const response = await fetch(`${API}/v1/chat/completions`, { method: "POST", body: "{}" });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("invalid_api_key");
  });
});

describe("hooks on session creation", () => {
  it("nourl: the next session has no url; error: the next creation fails with a 500 the package does not retry", async () => {
    await post("/__stripe/next?mode=nourl");
    expect((await stripe.checkout.sessions.create(params)).url).toBeNull();
    expect((await stripe.checkout.sessions.create(params)).url).toMatch(/\/stripe\/checkout\/cs_test_/);

    await post("/__stripe/next?mode=error");
    const error = await stripe.checkout.sessions.create(params).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Stripe.errors.StripeAPIError);
    expect((error as Stripe.errors.StripeError).statusCode).toBe(500);
    expect(await stripe.checkout.sessions.create(params)).toMatchObject({ status: "open" });
    expect(((await (await fetch(`${API}/__stripe/sessions`)).json()) as unknown[]).length).toBe(3);
  });

  it("slow: the next creation waits first", async () => {
    await post("/__stripe/next?mode=slow&delay=300");
    const start = performance.now();
    await stripe.checkout.sessions.create(params);
    expect(performance.now() - start).toBeGreaterThanOrEqual(290);
  });
});

describe("the hosted checkout page", () => {
  it("shows the product and the amount in BRL with three plain forms", async () => {
    const s = await stripe.checkout.sessions.create(params);
    const response = await fetch(s.url!);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain('<html lang="pt-BR">');
    expect(html).toContain("50 créditos");
    expect(html).toContain("R$ 9,90");
    expect(html).not.toContain("<script");
    expect(html).toContain(`<form method="post" action="/stripe/checkout/${s.id}/pay"><input type="hidden" name="method" value="card">`);
    expect(html).toContain('value="pix"><button type="submit">Pagar com Pix</button>');
    expect(html).toContain(
      `<form method="post" action="/stripe/checkout/${s.id}/cancel"><button type="submit" class="secondary">Cancelar</button>`,
    );
    expect((await fetch(`${API}/stripe/checkout/cs_test_unknown`)).status).toBe(404);
  });

  it("card: completes and pays the session, delivers a signed checkout.session.completed, then 303 to the success URL", async () => {
    const s = await stripe.checkout.sessions.create(params);
    const response = await fetch(`${API}/stripe/checkout/${s.id}/pay`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "method=card",
      redirect: "manual",
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`http://app.test/config?tab=conta&checkout=success&session_id=${s.id}`);
    expect(received).toHaveLength(1);
    expect(received[0].headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(received[0].headers["user-agent"]).toBe("Stripe/1.0 (+https://stripe.com/docs/webhooks)");
    expect(received[0].headers["stripe-signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const event = await verify(received[0]);
    expect(event).toMatchObject({ object: "event", type: "checkout.session.completed", livemode: false, pending_webhooks: 1 });
    expect(event.id).toMatch(/^evt_/);
    expect(session(event)).toMatchObject({ id: s.id, status: "complete", payment_status: "paid", metadata: { pack: "50" }, amount_total: 990 });
    expect(session(event).payment_intent).toMatch(/^pi_/);

    expect(await stripe.checkout.sessions.retrieve(s.id)).toMatchObject({ status: "complete", payment_status: "paid" });
    expect((await fetch(s.url!)).status).toBe(409);
    const deliveries = (await (await fetch(`${API}/__stripe/deliveries`)).json()) as { eventId: string; type: string; status: number }[];
    expect(deliveries).toMatchObject([{ eventId: event.id, type: "checkout.session.completed", status: 200 }]);
  });

  it("pix: completes unpaid and redirects; settling pays it and delivers async_payment_succeeded", async () => {
    const s = await stripe.checkout.sessions.create(params);
    const response = await fetch(`${API}/stripe/checkout/${s.id}/pay`, {
      method: "POST",
      body: new URLSearchParams({ method: "pix" }),
      redirect: "manual",
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toContain(`session_id=${s.id}`);
    expect(session(await verify(received[0]))).toMatchObject({ status: "complete", payment_status: "unpaid" });

    const settled = await post(`/__stripe/sessions/${s.id}/settle`);
    expect(settled).toMatchObject({ status: 200, body: { status: 200, session: { payment_status: "paid" } } });
    const event = await verify(received[1]);
    expect(event.type).toBe("checkout.session.async_payment_succeeded");
    expect(session(event)).toMatchObject({ id: s.id, status: "complete", payment_status: "paid" });
    expect((await post(`/__stripe/sessions/${s.id}/settle`)).status).toBe(409);
  });

  it("cancel: 303 to the cancel URL, the session stays open", async () => {
    const s = await stripe.checkout.sessions.create(params);
    const response = await fetch(`${API}/stripe/checkout/${s.id}/cancel`, { method: "POST", redirect: "manual" });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(params.cancel_url);
    expect(received).toHaveLength(0);
    expect((await stripe.checkout.sessions.retrieve(s.id)).status).toBe("open");
  });

  it("an expired session shows 410 and cannot be paid", async () => {
    const s = await stripe.checkout.sessions.create(params);
    expect(await stripe.checkout.sessions.expire(s.id)).toMatchObject({ status: "expired" });
    expect((await verify(received[0])).type).toBe("checkout.session.expired");
    expect((await fetch(`${API}/stripe/checkout/${s.id}`)).status).toBe(410);
    expect((await post(`/__stripe/sessions/${s.id}/pay?method=card`)).status).toBe(410);
  });
});

describe("payment and event hooks", () => {
  it("pay by card and by Pix without a browser; a failed Pix settles as async_payment_failed", async () => {
    const card = await stripe.checkout.sessions.create(params);
    const paid = await post(`/__stripe/sessions/${card.id}/pay?method=card`);
    expect(paid).toMatchObject({ status: 200, body: { status: 200, session: { status: "complete", payment_status: "paid" } } });
    expect((await verify(received[0])).id).toBe(paid.body.eventId);

    const pix = await stripe.checkout.sessions.create(params);
    const pending = await post(`/__stripe/sessions/${pix.id}/pay?method=pix`);
    expect(pending.body).toMatchObject({ status: 200, session: { status: "complete", payment_status: "unpaid" } });
    const failed = await post(`/__stripe/sessions/${pix.id}/settle?fail=1`);
    expect(failed.body).toMatchObject({ status: 200, session: { payment_status: "unpaid" } });
    expect((await verify(received[2])).type).toBe("checkout.session.async_payment_failed");

    hookStatus = 500;
    const third = await stripe.checkout.sessions.create(params);
    expect((await post(`/__stripe/sessions/${third.id}/pay?method=card`)).body).toMatchObject({ status: 500 });
  });

  it("send: signed correctly by default; a wrong secret and a 600-second-old timestamp are refused by the package", async () => {
    const s = await stripe.checkout.sessions.create(params);
    await post(`/__stripe/sessions/${s.id}/pay?method=card`);
    received = [];
    const good = await post(`/__stripe/sessions/${s.id}/send?type=checkout.session.completed`);
    expect(good.body).toMatchObject({ statuses: [200] });
    expect(await verify(received[0])).toMatchObject({ id: good.body.eventId, type: "checkout.session.completed" });

    await post(`/__stripe/sessions/${s.id}/send?type=checkout.session.completed&signature=bad`);
    expect(await rejection(received[1])).toBeInstanceOf(Stripe.errors.StripeSignatureVerificationError);

    await post(`/__stripe/sessions/${s.id}/send?type=checkout.session.completed&age=600`);
    const old = await rejection(received[2]);
    expect(old).toBeInstanceOf(Stripe.errors.StripeSignatureVerificationError);
    expect((old as Error).message).toMatch(/tolerance/);
    // the same old event passes with the tolerance check off: only its age is wrong
    const header = String(received[2].headers["stripe-signature"]);
    expect(Number(/t=(\d+)/.exec(header)![1])).toBeLessThanOrEqual(Date.now() / 1000 - 599);
    await expect(stripe.webhooks.constructEventAsync(received[2].body, header, SECRET, 0, cryptoProvider)).resolves.toBeTruthy();
  });

  it("count=20 delivers the same event 20 times at once, to `to` when given", async () => {
    const s = await stripe.checkout.sessions.create(params);
    await post(`/__stripe/sessions/${s.id}/pay?method=card&deliver=0`);
    expect(received).toHaveLength(0);
    const sent = await post(
      `/__stripe/sessions/${s.id}/send?type=checkout.session.completed&count=20&to=${encodeURIComponent(`${hookUrl}?copy=1`)}`,
    );
    expect(sent.body.statuses).toEqual(Array(20).fill(200));
    expect(sent.body.ms).toHaveLength(20);
    expect(received).toHaveLength(20);
    expect(new Set(received.map((r) => r.body)).size).toBe(1);
    expect(new Set(received.map((r) => r.headers["stripe-signature"])).size).toBe(1);
    const event = await verify(received[0]);
    expect(event.id).toBe(sent.body.eventId);
    expect(session(event).payment_status).toBe("paid");
    const deliveries = (await (await fetch(`${API}/__stripe/deliveries`)).json()) as { eventId: string; to: string }[];
    expect(deliveries.filter((d) => d.eventId === event.id && d.to.endsWith("?copy=1"))).toHaveLength(20);
  });

  it("charge.refunded carries the session's charge, a full refund by default", async () => {
    const s = await stripe.checkout.sessions.create(params);
    const { body } = await post(`/__stripe/sessions/${s.id}/pay?method=card&deliver=0`);
    const pi = (body.session as Stripe.Checkout.Session).payment_intent;
    await post(`/__stripe/sessions/${s.id}/send?type=charge.refunded`);
    const charge = (await verify(received[0])).data.object as Stripe.Charge;
    expect(charge).toMatchObject({
      object: "charge",
      amount: 990,
      amount_refunded: 990,
      currency: "brl",
      payment_intent: pi,
      refunded: true,
      status: "succeeded",
    });
    expect(charge.id).toMatch(/^ch_/);
    await post(`/__stripe/sessions/${s.id}/send?type=charge.refunded&amount_refunded=500`);
    expect((await verify(received[1])).data.object).toMatchObject({ id: charge.id, amount_refunded: 500, refunded: false });
  });

  it("payment_status overrides the snapshot (an out-of-order completed event); unknown sessions are 404", async () => {
    const s = await stripe.checkout.sessions.create(params);
    await post(`/__stripe/sessions/${s.id}/pay?method=pix&deliver=0`);
    await post(`/__stripe/sessions/${s.id}/settle`);
    await post(`/__stripe/sessions/${s.id}/send?type=checkout.session.completed&payment_status=unpaid`);
    expect(received.map((r) => JSON.parse(r.body) as Stripe.Event).map((e) => [e.type, session(e).payment_status])).toEqual([
      ["checkout.session.async_payment_succeeded", "paid"],
      ["checkout.session.completed", "unpaid"],
    ]);
    expect((await post("/__stripe/sessions/cs_test_nope/send?type=checkout.session.completed")).status).toBe(404);
  });
});
