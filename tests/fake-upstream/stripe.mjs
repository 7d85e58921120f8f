// Stripe Checkout for the fake upstream (server.mjs calls handleStripe for every request; anything not under
// /v1/checkout/, /stripe/checkout/ or /__stripe/ is "not mine" → false). State lives in this module.
// Protocol: https://docs.stripe.com/api/checkout/sessions, https://docs.stripe.com/api/errors,
// https://docs.stripe.com/api/idempotent_requests, https://docs.stripe.com/webhooks#verify-manually
//
// API (Authorization: Bearer <--stripe-key>, or Basic with the key as user; bodies form-encoded in Stripe's
// bracket notation, answers JSON with a Request-Id header; errors {error:{type, message, param?, code?}}):
//   POST /v1/checkout/sessions                 create. Validates like Stripe (400 invalid_request_error + param:
//        unknown parameter, mode, success_url, line_items, price_data currency/unit_amount/product_data[name],
//        quantity, a total ≥ 50 cents, pix only in brl, customer_email, metadata). Idempotency-Key: same key + same
//        body → the first answer again (Idempotent-Replayed: true); same key + other body → 400 idempotency_error.
//        payment_method_types: payment_method_types, else allowed_payment_method_types, else brl → ["card","pix"]
//        (other currencies ["card"]); minus excluded_payment_method_types. url: http://<Host>/stripe/checkout/<id>.
//   GET  /v1/checkout/sessions[?limit=N]       list, newest first
//   GET  /v1/checkout/sessions/:id             retrieve (404 resource_missing); expand[]=line_items is honoured
//   GET  /v1/checkout/sessions/:id/line_items  its line items
//   POST /v1/checkout/sessions/:id/expire      open → expired, delivers checkout.session.expired
// Hosted checkout page (pt-BR, plain forms, no JavaScript needed):
//   GET  /stripe/checkout/:id                  product(s), total "R$ 9,90", buttons "Pagar com cartão", "Pagar com
//        Pix" (only when the session allows pix), "Cancelar"; unknown 404, complete 409, expired 410
//   POST /stripe/checkout/:id/pay  method=card|pix   card: complete + paid; pix: complete + unpaid (settled by hook);
//        delivers checkout.session.completed (awaited; no automatic retries), then 303 → success_url with
//        {CHECKOUT_SESSION_ID} filled in. A method the session does not allow → 400.
//   POST /stripe/checkout/:id/cancel           303 → cancel_url
// Events go to --stripe-webhook-url as Stripe sends them: pretty-printed JSON, Content-Type application/json;
// charset=utf-8, Stripe-Signature t=<unix s>,v1=<hex HMAC-SHA256 of "<t>.<payload>" keyed with --stripe-webhook-secret>.
//
// Test hooks (answer JSON; unknown session 404, a session in the wrong state 409):
//   POST /__stripe/next?mode=error|nourl|slow[&delay=MS][&count=N]  queue for the next session creations: error →
//        500 api_error (Stripe-Should-Retry: false, so the stripe package does not retry), nourl → url null,
//        slow → wait delay ms (default 5000) first
//   POST /__stripe/sessions/:id/pay?method=card|pix[&to=URL][&deliver=0]   as the page's button → {status, eventId, session}
//   POST /__stripe/sessions/:id/settle[?fail=1][&to=URL][&deliver=0]      a paid-by-Pix session settles: payment_status
//        paid + checkout.session.async_payment_succeeded (fail=1: stays unpaid + …async_payment_failed)
//        → {status, eventId, session}   (status: the app's HTTP status, 0 when unreachable, null when not delivered)
//   POST /__stripe/sessions/:id/send?type=T[&count=N][&signature=bad][&age=S][&amount_refunded=CENTS]
//        [&payment_status=paid|unpaid][&to=URL]   one event of type T for the session's current state (charge.* → a
//        Charge; charge.refunded defaults to a full refund), delivered N times concurrently, identical each time;
//        signature=bad signs with a wrong secret, age=S dates it S seconds back (signed correctly), payment_status
//        overrides the session snapshot's (out-of-order events) → {eventId, statuses: [...], ms: [...]}
//   GET  /__stripe/sessions      every session, oldest first, plus request (the parsed body the app sent),
//        idempotencyKey and stripeVersion
//   GET  /__stripe/deliveries    every delivery {eventId, type, sessionId, to, status, ms[, error]}
//   POST /__stripe/reset         forget sessions, idempotency keys, deliveries and queued hooks
import { createHmac, randomBytes } from "node:crypto";

const API_VERSION = "2025-10-29.clover";
const DAY = 24 * 60 * 60;

// ——— state ———
const sessions = new Map(); // id → {session, request, idempotencyKey, stripeVersion, method, chargeId, amountRefunded, lineItems}
const idempotent = new Map(); // Idempotency-Key → {body (raw request), status, answer (JSON text)}
const deliveries = [];
const next = []; // queued {mode, delay}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const now = () => Math.floor(Date.now() / 1000);
const randomId = (prefix) => prefix + randomBytes(18).toString("base64url").replace(/[-_]/g, "x").slice(0, 24);
const clone = (value) => JSON.parse(JSON.stringify(value));

function json(res, status, body, headers = {}) {
  res.writeHead(status, { "Content-Type": "application/json", "Request-Id": randomId("req_"), ...headers });
  res.end(typeof body === "string" ? body : JSON.stringify(body, null, 2));
}

function stripeError(res, status, type, message, extra = {}) {
  return json(res, status, { error: { type, message, ...extra } }, status >= 500 ? { "Stripe-Should-Retry": "false" } : {});
}

const invalid = (res, message, param, extra = {}) =>
  stripeError(res, 400, "invalid_request_error", message, { ...(param ? { param } : {}), ...extra });

async function readText(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

/** Stripe's form encoding: `a[b][0][c]=x` → {a: {b: [{c: "x"}]}}; numeric or empty brackets make arrays. */
export function parseStripeForm(text) {
  const root = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
    const parts = match ? [match[1], ...[...match[2].matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1])] : [key];
    if (parts.some((p) => p === "__proto__" || p === "constructor" || p === "prototype")) continue;
    let node = root;
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i] === "" && Array.isArray(node) ? node.length : parts[i];
      if (i === parts.length - 1) {
        node[part] = value;
      } else {
        if (typeof node[part] !== "object" || node[part] === null) node[part] = /^\d*$/.test(parts[i + 1]) ? [] : {};
        node = node[part];
      }
    }
  }
  return root;
}

/** The secret key of a request: Bearer, or Basic with the key as user (both as Stripe accepts); null when none. */
function apiKey(req) {
  const header = String(req.headers.authorization ?? "");
  if (header.startsWith("Bearer ")) return header.slice(7) || null;
  if (header.startsWith("Basic ")) return Buffer.from(header.slice(6), "base64").toString("utf8").split(":")[0] || null;
  return null;
}

/** 401 unless the request carries the right secret key; true when it does. */
function checkKey(req, res, opts) {
  const key = apiKey(req);
  if (key === opts["stripe-key"]) return true;
  if (!key) {
    stripeError(
      res,
      401,
      "invalid_request_error",
      "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
    );
  } else {
    stripeError(
      res,
      401,
      "invalid_request_error",
      `Invalid API Key provided: ${key.slice(0, 8)}${"*".repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`,
    );
  }
  return false;
}

// ——— validation of POST /v1/checkout/sessions ———
const KNOWN_PARAMS = new Set(
  (
    "adaptive_pricing after_expiration allow_promotion_codes allowed_payment_method_types automatic_tax billing_address_collection " +
    "branding_settings cancel_url client_reference_id consent_collection currency custom_fields custom_text customer customer_account " +
    "customer_creation customer_email customer_update discounts excluded_payment_method_types expand expires_at integration_identifier " +
    "invoice_creation line_items locale managed_payments metadata mode name_collection optional_items origin_context payment_intent_data " +
    "payment_method_collection payment_method_configuration payment_method_data payment_method_options payment_method_types permissions " +
    "phone_number_collection redirect_on_completion return_url saved_payment_method_options setup_intent_data shipping_address_collection " +
    "shipping_options submit_type subscription_data success_url tax_id_collection ui_mode wallet_options"
  ).split(" "),
);
const LOCALES = new Set(
  (
    "auto bg cs da de el en en-GB es es-419 et fi fil fr fr-CA hi-IN hr hu id it ja ko lt lv ms mt nb nl pl pt pt-BR ro ru sk sl sv " +
    "th tr vi zh zh-HK zh-TW"
  ).split(" "),
);
const isUrl = (value) => {
  try {
    return ["http:", "https:"].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};
const integer = (value) => (typeof value === "string" && /^-?\d+$/.test(value) ? Number(value) : NaN);

/** The Stripe error a create request deserves, as [message, param, extra?], or the line items it describes. */
function validate(body) {
  for (const key of Object.keys(body)) if (!KNOWN_PARAMS.has(key)) return { error: [`Received unknown parameter: ${key}`, key] };
  if (!body.mode) return { error: ["Missing required param: mode.", "mode"] };
  if (!["payment", "setup", "subscription"].includes(body.mode)) {
    return { error: ["Invalid mode: must be one of payment, setup, or subscription", "mode"] };
  }
  const uiMode = body.ui_mode ?? "hosted";
  if (uiMode === "hosted" && !body.success_url) return { error: ["Missing required param: success_url.", "success_url"] };
  for (const param of ["success_url", "cancel_url"]) {
    if (body[param] !== undefined && !isUrl(body[param])) return { error: ["Not a valid URL", param] };
  }
  if (body.customer_email !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(body.customer_email)) {
    return { error: [`Invalid email address: ${body.customer_email}`, "customer_email"] };
  }
  if (body.locale !== undefined && !LOCALES.has(body.locale)) return { error: [`Invalid locale: ${body.locale}`, "locale"] };
  if (body.client_reference_id !== undefined && String(body.client_reference_id).length > 200) {
    return { error: ["Invalid client_reference_id: must be at most 200 characters", "client_reference_id"] };
  }
  if (body.metadata !== undefined) {
    if (typeof body.metadata !== "object" || Array.isArray(body.metadata)) return { error: ["Invalid object", "metadata"] };
    const entries = Object.entries(body.metadata);
    if (entries.length > 50) return { error: ["Invalid metadata: at most 50 keys", "metadata"] };
    for (const [k, v] of entries) {
      if (k.length > 40) return { error: [`Metadata key length can't exceed 40 characters.`, `metadata[${k}]`] };
      if (typeof v !== "string" || v.length > 500) return { error: [`Metadata values can have up to 500 characters.`, `metadata[${k}]`] };
    }
  }
  const lineItems = [];
  if (body.mode !== "setup") {
    if (!Array.isArray(body.line_items) || body.line_items.length === 0) return { error: ["Missing required param: line_items.", "line_items"] };
    for (const [i, item] of [...body.line_items].entries()) {
      const at = `line_items[${i}]`;
      if (!item || typeof item !== "object") return { error: [`Missing required param: ${at}.`, at] };
      if (item.price !== undefined) return { error: [`No such price: '${item.price}'`, `${at}[price]`, { code: "resource_missing" }] };
      const data = item.price_data;
      if (!data || typeof data !== "object") return { error: [`Missing required param: ${at}[price_data].`, `${at}[price_data]`] };
      if (!data.currency) return { error: [`Missing required param: ${at}[price_data][currency].`, `${at}[price_data][currency]`] };
      if (!/^[a-z]{3}$/i.test(data.currency)) return { error: [`Invalid currency: ${data.currency}`, `${at}[price_data][currency]`] };
      if (data.product !== undefined)
        return { error: [`No such product: '${data.product}'`, `${at}[price_data][product]`, { code: "resource_missing" }] };
      if (!data.product_data?.name) {
        return { error: [`Missing required param: ${at}[price_data][product_data][name].`, `${at}[price_data][product_data][name]`] };
      }
      if (data.unit_amount === undefined && data.unit_amount_decimal === undefined) {
        return { error: [`Missing required param: ${at}[price_data][unit_amount].`, `${at}[price_data][unit_amount]`] };
      }
      const unitAmount = data.unit_amount !== undefined ? integer(data.unit_amount) : Math.round(Number(data.unit_amount_decimal));
      if (!Number.isFinite(unitAmount) || unitAmount < 0) {
        return { error: [`Invalid integer: ${data.unit_amount ?? data.unit_amount_decimal}`, `${at}[price_data][unit_amount]`] };
      }
      if (item.quantity === undefined) return { error: [`Missing required param: ${at}[quantity].`, `${at}[quantity]`] };
      const quantity = integer(item.quantity);
      if (!Number.isFinite(quantity)) return { error: [`Invalid integer: ${item.quantity}`, `${at}[quantity]`] };
      if (quantity < 1) return { error: ["This value must be greater than or equal to 1.", `${at}[quantity]`] };
      if (body.mode === "subscription" && !data.recurring) {
        return { error: [`Missing required param: ${at}[price_data][recurring].`, `${at}[price_data][recurring]`] };
      }
      const currency = data.currency.toLowerCase();
      if (lineItems.length && lineItems[0].currency !== currency) {
        return { error: ["All line items must have the same currency.", `${at}[price_data][currency]`] };
      }
      lineItems.push({ name: data.product_data.name, description: data.product_data.description ?? null, unitAmount, quantity, currency });
    }
    const total = lineItems.reduce((sum, li) => sum + li.unitAmount * li.quantity, 0);
    if (body.mode === "payment" && total < 50) {
      return {
        error: [
          `The Checkout Session's total amount due must add up to at least 0.50 ${lineItems[0].currency}`,
          "line_items",
          { code: "amount_too_small" },
        ],
      };
    }
  }
  const currency = lineItems[0]?.currency ?? body.currency?.toLowerCase() ?? null;
  let types = body.payment_method_types ?? body.allowed_payment_method_types;
  const typesParam = body.payment_method_types ? "payment_method_types" : "allowed_payment_method_types";
  if (types !== undefined && (!Array.isArray(types) || types.length === 0)) return { error: ["Invalid array", typesParam] };
  types = types ? [...types] : currency === "brl" ? ["card", "pix"] : ["card"];
  if (Array.isArray(body.excluded_payment_method_types)) types = types.filter((t) => !body.excluded_payment_method_types.includes(t));
  if (types.includes("pix") && currency !== "brl") {
    return {
      error: [
        `The currency provided (${currency}) is invalid for one or more payment method types on this session. Payment method type pix only supports currency brl.`,
        typesParam,
      ],
    };
  }
  return { lineItems, currency, types };
}

function createSession(body, lineItems, currency, types, host, urlNull) {
  const created = now();
  const id = randomId("cs_test_");
  const amount = lineItems.length ? lineItems.reduce((sum, li) => sum + li.unitAmount * li.quantity, 0) : null;
  return {
    id,
    object: "checkout.session",
    adaptive_pricing: null,
    after_expiration: null,
    allow_promotion_codes: null,
    allowed_payment_method_types: body.allowed_payment_method_types ?? null,
    amount_subtotal: amount,
    amount_total: amount,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: body.billing_address_collection ?? null,
    cancel_url: body.cancel_url ?? null,
    client_reference_id: body.client_reference_id ?? null,
    client_secret: null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created,
    currency,
    currency_conversion: null,
    custom_fields: [],
    custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
    customer: null,
    customer_account: null,
    customer_creation: "if_required",
    customer_details: body.customer_email
      ? { address: null, email: body.customer_email, name: null, phone: null, tax_exempt: "none", tax_ids: [] }
      : null,
    customer_email: body.customer_email ?? null,
    discounts: [],
    expires_at: body.expires_at ? integer(body.expires_at) : created + DAY,
    integration_identifier: null,
    invoice: null,
    invoice_creation: null,
    livemode: false,
    locale: body.locale ?? null,
    managed_payments: null,
    metadata: body.metadata ?? {},
    mode: body.mode,
    origin_context: null,
    payment_intent: null,
    payment_link: null,
    payment_method_collection: body.mode === "payment" ? "if_required" : "always",
    payment_method_configuration_details: null,
    payment_method_options: {},
    payment_method_types: types,
    payment_status: body.mode === "setup" ? "no_payment_required" : "unpaid",
    permissions: null,
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: "open",
    submit_type: body.submit_type ?? null,
    subscription: null,
    success_url: body.success_url ?? null,
    total_details: amount === null ? null : { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: body.ui_mode ?? "hosted",
    url: urlNull ? null : `http://${host}/stripe/checkout/${id}`,
    wallet_options: null,
  };
}

function lineItemList(entry) {
  return {
    object: "list",
    data: entry.lineItems.map((li, i) => ({
      id: `li_${entry.session.id.slice(8, 20)}${i}`,
      object: "item",
      amount_discount: 0,
      amount_subtotal: li.unitAmount * li.quantity,
      amount_tax: 0,
      amount_total: li.unitAmount * li.quantity,
      currency: li.currency,
      description: li.name,
      price: {
        id: `price_${entry.session.id.slice(8, 20)}${i}`,
        object: "price",
        active: false,
        currency: li.currency,
        livemode: false,
        product: `prod_${entry.session.id.slice(8, 20)}${i}`,
        type: "one_time",
        unit_amount: li.unitAmount,
      },
      quantity: li.quantity,
    })),
    has_more: false,
    url: `/v1/checkout/sessions/${entry.session.id}/line_items`,
  };
}

/** The session as the API shows it now (an open session past expires_at has expired). */
function current(entry) {
  if (entry.session.status === "open" && now() >= entry.session.expires_at) entry.session.status = "expired";
  return entry.session;
}

// ——— events ———
function chargeOf(entry) {
  const s = entry.session;
  entry.chargeId ??= randomId("ch_");
  const amount = s.amount_total ?? 0;
  return {
    id: entry.chargeId,
    object: "charge",
    amount,
    amount_captured: amount,
    amount_refunded: entry.amountRefunded,
    billing_details: { address: null, email: s.customer_details?.email ?? null, name: null, phone: null },
    captured: true,
    created: entry.paidAt ?? s.created,
    currency: s.currency,
    livemode: false,
    metadata: {},
    paid: true,
    payment_intent: s.payment_intent,
    payment_method_details: { type: entry.method ?? "card" },
    refunded: entry.amountRefunded === amount,
    status: "succeeded",
  };
}

function eventOf(type, object, created = now()) {
  return {
    id: randomId("evt_"),
    object: "event",
    api_version: API_VERSION,
    created,
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
}

export function stripeSignature(payload, secret, timestamp) {
  return `t=${timestamp},v1=${createHmac("sha256", secret).update(`${timestamp}.${payload}`, "utf8").digest("hex")}`;
}

/** POSTs one event `count` times at once (the same bytes and signature each time); records every delivery. */
async function deliver(event, opts, { to, count = 1, badSignature = false, timestamp = now(), sessionId = null } = {}) {
  const target = to || opts["stripe-webhook-url"];
  const payload = JSON.stringify(event, null, 2);
  const secret = badSignature ? `${opts["stripe-webhook-secret"]}_wrong` : opts["stripe-webhook-secret"];
  const headers = {
    "Content-Type": "application/json; charset=utf-8",
    "User-Agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
    Accept: "*/*; q=0.5, application/xml",
    "Cache-Control": "no-cache",
    "Stripe-Signature": stripeSignature(payload, secret, timestamp),
  };
  return Promise.all(
    Array.from({ length: count }, async () => {
      const start = performance.now();
      let status = 0;
      let error;
      try {
        const response = await fetch(target, { method: "POST", headers, body: payload, signal: AbortSignal.timeout(30_000) });
        status = response.status;
        await response.arrayBuffer();
      } catch (e) {
        error = String(e?.cause ?? e);
      }
      const ms = Math.round((performance.now() - start) * 10) / 10;
      deliveries.push({ eventId: event.id, type: event.type, sessionId, to: target, status, ms, ...(error ? { error } : {}) });
      return { status, ms };
    }),
  );
}

async function deliverFor(entry, type, opts, extra = {}) {
  const event = eventOf(type, clone(entry.session));
  const [{ status }] = await deliver(event, opts, { ...extra, sessionId: entry.session.id });
  return { status, eventId: event.id };
}

/** Pays an open session by card or Pix and delivers checkout.session.completed; {code, message} when it cannot. */
async function pay(entry, method, opts, { to, send = true } = {}) {
  const s = current(entry);
  if (s.status === "complete") return { code: 409, message: "Este pagamento já foi concluído." };
  if (s.status === "expired") return { code: 410, message: "Esta sessão de pagamento expirou." };
  if (!["card", "pix"].includes(method)) return { code: 400, message: "Forma de pagamento desconhecida." };
  if (!s.payment_method_types.includes(method)) return { code: 400, message: "Esta forma de pagamento não está disponível." };
  entry.method = method;
  entry.paidAt = now();
  s.status = "complete";
  s.payment_status = method === "card" ? "paid" : "unpaid";
  s.payment_intent = randomId("pi_");
  s.customer_details ??= { address: null, email: null, name: null, phone: null, tax_exempt: "none", tax_ids: [] };
  if (!send) return { status: null, eventId: null };
  return deliverFor(entry, "checkout.session.completed", opts, { to });
}

// ——— hosted page ———
const escapeHtml = (text) =>
  String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

function money(cents, currency) {
  const amount = new Intl.NumberFormat("pt-BR", { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(cents / 100);
  return currency === "brl" ? `R$ ${amount}` : `${String(currency).toUpperCase()} ${amount}`;
}

function page(res, status, title, body) {
  res.writeHead(status, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
  res.end(`<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Stripe Checkout (teste)</title>
<style>
body{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a;line-height:1.5}
.total{font-size:1.75rem;font-weight:700}button{display:block;width:100%;margin:.5rem 0;padding:.75rem;font-size:1rem;
border-radius:6px;border:1px solid #635bff;background:#635bff;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#3d36c9}.test{background:#fff3cd;color:#664d03;padding:.25rem .5rem;border-radius:4px}
</style>
</head>
<body>
<main>
<p class="test">Modo de teste</p>
${body}
</main>
</body>
</html>
`);
}

function messagePage(res, status, message) {
  return page(res, status, message, `<h1>${escapeHtml(message)}</h1>`);
}

function checkoutPage(res, entry) {
  const s = current(entry);
  if (s.status === "complete") return messagePage(res, 409, "Este pagamento já foi concluído.");
  if (s.status === "expired") return messagePage(res, 410, "Esta sessão de pagamento expirou.");
  const base = `/stripe/checkout/${encodeURIComponent(s.id)}`;
  const items = entry.lineItems
    .map(
      (li) =>
        `<li>${escapeHtml(li.name)}${li.quantity > 1 ? ` × ${li.quantity}` : ""} — ${money(li.unitAmount * li.quantity, li.currency)}</li>`,
    )
    .join("\n");
  const button = (method, label) =>
    `<form method="post" action="${base}/pay"><input type="hidden" name="method" value="${method}"><button type="submit">${label}</button></form>`;
  return page(
    res,
    200,
    entry.lineItems[0]?.name ?? "Pagamento",
    `<h1>${escapeHtml(entry.lineItems[0]?.name ?? "Pagamento")}</h1>
<ul>
${items}
</ul>
<p>Total: <span class="total">${money(s.amount_total ?? 0, s.currency)}</span></p>
${s.customer_email ? `<p>E-mail: ${escapeHtml(s.customer_email)}</p>` : ""}
${s.payment_method_types.includes("card") ? button("card", "Pagar com cartão") : ""}
${s.payment_method_types.includes("pix") ? button("pix", "Pagar com Pix") : ""}
<form method="post" action="${base}/cancel"><button type="submit" class="secondary">Cancelar</button></form>`,
  );
}

function redirect(res, location) {
  res.writeHead(303, { Location: location, "Content-Type": "text/plain; charset=utf-8" });
  res.end(`Redirecionando para ${location}`);
}

async function handleHosted(req, res, url, opts) {
  const match = /^\/stripe\/checkout\/([^/]+)(?:\/(pay|cancel))?$/.exec(url.pathname);
  if (!match) return messagePage(res, 404, "Página não encontrada.");
  const entry = sessions.get(decodeURIComponent(match[1]));
  const action = match[2];
  if (!action && req.method !== "GET" && req.method !== "HEAD") return messagePage(res, 405, "Método não permitido.");
  if (action && req.method !== "POST") return messagePage(res, 405, "Método não permitido.");
  if (!entry) return messagePage(res, 404, "Sessão de pagamento não encontrada.");
  if (!action) return checkoutPage(res, entry);
  const form = new URLSearchParams(await readText(req));
  const s = current(entry);
  if (action === "cancel") {
    if (s.status === "complete") return messagePage(res, 409, "Este pagamento já foi concluído.");
    return s.cancel_url ? redirect(res, s.cancel_url) : messagePage(res, 200, "Pagamento cancelado.");
  }
  const result = await pay(entry, form.get("method") ?? url.searchParams.get("method") ?? "", opts);
  if (result.code) return messagePage(res, result.code, result.message);
  if (!s.success_url) return messagePage(res, 200, "Pagamento concluído.");
  return redirect(res, s.success_url.replaceAll("{CHECKOUT_SESSION_ID}", s.id));
}

// ——— the API ———
async function handleApi(req, res, url, opts) {
  const body = req.method === "POST" ? await readText(req) : "";
  if (!checkKey(req, res, opts)) return;
  const path = url.pathname.replace(/\/$/, "");
  const unrecognized = () => invalid(res, `Unrecognized request URL (${req.method}: ${url.pathname}).`);

  if (path === "/v1/checkout/sessions") {
    if (req.method === "GET") {
      const limit = Math.min(100, Math.max(1, Number(url.searchParams.get("limit") ?? 10) || 10));
      const all = [...sessions.values()].map(current).reverse();
      return json(res, 200, { object: "list", data: all.slice(0, limit), has_more: all.length > limit, url: "/v1/checkout/sessions" });
    }
    if (req.method !== "POST") return unrecognized();
    const key = req.headers["idempotency-key"] ? String(req.headers["idempotency-key"]) : null;
    const replay = () => {
      const saved = key && idempotent.get(key);
      if (!saved) return false;
      if (saved.body !== body) {
        stripeError(
          res,
          400,
          "idempotency_error",
          `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
        );
      } else {
        json(res, saved.status, saved.answer, { "Idempotent-Replayed": "true", "Idempotency-Key": key });
      }
      return true;
    };
    if (replay()) return;
    const hook = next.shift();
    if (hook?.mode === "slow") {
      await sleep(hook.delay);
      if (replay()) return;
    }
    if (hook?.mode === "error") return stripeError(res, 500, "api_error", "An unknown error occurred (injected by the fake).");
    const request = parseStripeForm(body);
    const checked = validate(request);
    if (checked.error) {
      const [message, param, extra] = checked.error;
      return invalid(res, message, param, extra);
    }
    const session = createSession(request, checked.lineItems, checked.currency, checked.types, req.headers.host, hook?.mode === "nourl");
    const entry = {
      session,
      request,
      idempotencyKey: key,
      stripeVersion: req.headers["stripe-version"] ?? null,
      lineItems: checked.lineItems,
      method: null,
      chargeId: null,
      amountRefunded: 0,
    };
    sessions.set(session.id, entry);
    const expand = [request.expand ?? []].flat();
    const answer = JSON.stringify({ ...session, ...(expand.includes("line_items") ? { line_items: lineItemList(entry) } : {}) }, null, 2);
    if (key) idempotent.set(key, { body, status: 200, answer });
    return json(res, 200, answer, key ? { "Idempotency-Key": key } : {});
  }

  const match = /^\/v1\/checkout\/sessions\/([^/]+)(?:\/(line_items|expire))?$/.exec(path);
  if (!match) return unrecognized();
  const id = decodeURIComponent(match[1]);
  const entry = sessions.get(id);
  const action = match[2];
  if ((action === "expire") !== (req.method === "POST") || !["GET", "POST"].includes(req.method)) return unrecognized();
  if (!entry)
    return stripeError(res, 404, "invalid_request_error", `No such checkout.session: '${id}'`, { param: "session", code: "resource_missing" });
  if (action === "line_items") return json(res, 200, lineItemList(entry));
  if (action === "expire") {
    const s = current(entry);
    if (s.status !== "open") {
      return invalid(
        res,
        `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${s.status}".`,
      );
    }
    s.status = "expired";
    s.url = null;
    await deliverFor(entry, "checkout.session.expired", opts);
    return json(res, 200, s);
  }
  const expand = [...url.searchParams.entries()].filter(([k]) => /^expand(\[\d*\])?$/.test(k)).map(([, v]) => v);
  return json(res, 200, { ...current(entry), ...(expand.includes("line_items") ? { line_items: lineItemList(entry) } : {}) });
}

// ——— test hooks ———
async function handleHooks(req, res, url, opts) {
  await readText(req);
  const q = url.searchParams;
  const path = url.pathname;
  if (req.method === "POST" && path === "/__stripe/next") {
    const mode = q.get("mode") ?? "slow";
    if (!["error", "nourl", "slow"].includes(mode)) return json(res, 400, { error: `unknown mode ${mode}` });
    for (let i = 0; i < Number(q.get("count") ?? 1); i++) next.push({ mode, delay: Number(q.get("delay") ?? 5000) });
    return json(res, 200, { queued: next.length });
  }
  if (req.method === "GET" && path === "/__stripe/sessions") {
    return json(
      res,
      200,
      [...sessions.values()].map((e) => ({
        ...current(e),
        request: e.request,
        idempotencyKey: e.idempotencyKey,
        stripeVersion: e.stripeVersion,
      })),
    );
  }
  if (req.method === "GET" && path === "/__stripe/deliveries") return json(res, 200, deliveries);
  if (req.method === "POST" && path === "/__stripe/reset") {
    sessions.clear();
    idempotent.clear();
    deliveries.length = 0;
    next.length = 0;
    return json(res, 200, { ok: true });
  }
  const match = /^\/__stripe\/sessions\/([^/]+)\/(pay|settle|send)$/.exec(path);
  if (!match || req.method !== "POST") return json(res, 404, { error: "not found" });
  const entry = sessions.get(decodeURIComponent(match[1]));
  if (!entry) return json(res, 404, { error: `no session ${match[1]}` });
  const to = q.get("to") || undefined;
  const send = q.get("deliver") !== "0";

  if (match[2] === "pay") {
    const result = await pay(entry, q.get("method") ?? "card", opts, { to, send });
    if (result.code) return json(res, result.code, { error: result.message, session: current(entry) });
    return json(res, 200, { ...result, session: entry.session });
  }
  if (match[2] === "settle") {
    const s = current(entry);
    if (s.status !== "complete" || entry.method !== "pix" || s.payment_status !== "unpaid") {
      return json(res, 409, { error: "only a complete, unpaid Pix session settles", session: s });
    }
    const fail = q.get("fail") === "1" || q.get("fail") === "true";
    if (!fail) s.payment_status = "paid";
    const type = fail ? "checkout.session.async_payment_failed" : "checkout.session.async_payment_succeeded";
    if (!send) return json(res, 200, { status: null, eventId: null, session: s });
    return json(res, 200, { ...(await deliverFor(entry, type, opts, { to })), session: s });
  }
  // send
  const type = q.get("type");
  if (!type) return json(res, 400, { error: "type is required" });
  const age = Number(q.get("age")) || 0;
  const timestamp = now() - age;
  let object;
  if (type.startsWith("charge.")) {
    if (type === "charge.refunded") {
      const refunded = q.has("amount_refunded") ? Number(q.get("amount_refunded")) : (entry.session.amount_total ?? 0);
      entry.amountRefunded = refunded;
    }
    object = chargeOf(entry);
  } else {
    object = clone(current(entry));
    if (q.get("payment_status")) object.payment_status = q.get("payment_status");
  }
  const event = eventOf(type, object, timestamp);
  const results = await deliver(event, opts, {
    to,
    count: Math.max(1, Number(q.get("count")) || 1),
    badSignature: q.get("signature") === "bad",
    timestamp,
    sessionId: entry.session.id,
  });
  return json(res, 200, { eventId: event.id, statuses: results.map((r) => r.status), ms: results.map((r) => r.ms) });
}

export async function handleStripe(req, res, url, opts) {
  if (url.pathname.startsWith("/v1/checkout/")) return (await handleApi(req, res, url, opts)) ?? true;
  if (url.pathname.startsWith("/stripe/checkout/")) return (await handleHosted(req, res, url, opts)) ?? true;
  if (url.pathname.startsWith("/__stripe/")) return (await handleHooks(req, res, url, opts)) ?? true;
  return false;
}
