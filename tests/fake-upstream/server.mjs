// One local process that stands in for the outside services in end-to-end tests, speaking their real
// HTTP protocols. Today: the Resend e-mail API (POST /emails). Later issues add OAuth, AI providers
// and payments here. Test-only inspection endpoints live under /__.
//
//   node tests/fake-upstream/server.mjs [--port 4010] [--api-key test-key]
import http from "node:http";
import { parseArgs } from "node:util";

const { values: opts } = parseArgs({
  options: { port: { type: "string", default: "4010" }, "api-key": { type: "string", default: "test-mail-key" } },
});

const emails = [];
let failNext = 0;

function json(res, status, body) {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

async function readJson(req) {
  let body = "";
  for await (const chunk of req) body += chunk;
  return body ? JSON.parse(body) : {};
}

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url, "http://localhost");
  try {
    // ——— Resend: https://resend.com/docs/api-reference/emails/send-email ———
    if (req.method === "POST" && url.pathname === "/emails") {
      if (req.headers.authorization !== `Bearer ${opts["api-key"]}`) {
        return json(res, 401, { statusCode: 401, name: "validation_error", message: "API key is invalid" });
      }
      const body = await readJson(req);
      const to = Array.isArray(body.to) ? body.to : [body.to];
      if (!body.from || !to[0] || !body.subject || !(body.html || body.text)) {
        return json(res, 422, { statusCode: 422, name: "validation_error", message: "Missing required field" });
      }
      if (failNext > 0) {
        failNext--;
        return json(res, 500, { statusCode: 500, name: "application_error", message: "Injected failure" });
      }
      const id = crypto.randomUUID();
      emails.push({ id, from: body.from, to, subject: body.subject, html: body.html, text: body.text, at: Date.now() });
      return json(res, 200, { id });
    }

    // ——— inspection for tests ———
    if (req.method === "GET" && url.pathname === "/__emails") {
      const to = url.searchParams.get("to");
      return json(res, 200, to ? emails.filter((m) => m.to.includes(to)) : emails);
    }
    if (req.method === "POST" && url.pathname === "/__fail-next") {
      failNext = Number(url.searchParams.get("count") ?? 1);
      return json(res, 200, { failNext });
    }
    if (req.method === "GET" && url.pathname === "/__health") return json(res, 200, { ok: true });
    json(res, 404, { message: "not found" });
  } catch (error) {
    json(res, 400, { message: String(error) });
  }
});

server.listen(Number(opts.port), "127.0.0.1", () => console.log(`[fake-upstream] listening on 127.0.0.1:${opts.port}`));
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.close(() => process.exit(0)));
