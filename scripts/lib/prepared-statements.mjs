// Named prepared statements across connections, for the embedded database's server (scripts/db-server.mjs).
//
// PGlite is ONE Postgres session shared by every client connection, so a statement one connection prepared under a
// name still exists when the next connection sends its Parse for the same name — which Postgres refuses ("prepared
// statement already exists"). The worker names every statement with parameters by a hash of its text
// (app/server/db.server.ts), so this server does what Hyperdrive and PgBouncer (max_prepared_statements) do in
// production: a Parse it has already seen succeed, byte for byte, is answered ParseComplete here and not sent on, so
// the statement runs on the plan Postgres kept. A name that may exist but is not known to match is closed first
// (Close of a missing statement is not an error), so nothing a client does can meet "already exists".

const PARSE = 0x50; // 'P'
const QUERY = 0x51; // 'Q'
const CLOSE = 0x43; // 'C'
const STATEMENT = 0x53; // 'S' — Close's target kind
const ERROR = 0x45; // 'E'
const PARSE_COMPLETE_TYPE = 0x31; // '1'
const CLOSE_COMPLETE_TYPE = 0x33; // '3'
const PARSE_COMPLETE = Buffer.from([PARSE_COMPLETE_TYPE, 0, 0, 0, 4]);
/** SQLSTATE invalid_sql_statement_name: a Bind for a statement the session no longer has. */
const NO_SUCH_STATEMENT = "26000";
const FORGETS_STATEMENTS = /\b(?:deallocate|discard)\b/i;

/** The whole messages of `bytes` (after start-up: a type byte and a length) as [start, end) offsets. */
function messages(bytes) {
  const found = [];
  for (let at = 0; at + 5 <= bytes.length;) {
    const end = at + 1 + bytes.readInt32BE(at + 1);
    found.push({ type: bytes[at], start: at, end });
    at = end;
  }
  return found;
}

/** The zero-terminated string at `at`. */
const cString = (bytes, at) => bytes.toString("utf8", at, bytes.indexOf(0, at));

function closeStatement(name) {
  const body = Buffer.from(`S${name}\0`);
  const header = Buffer.alloc(5);
  header[0] = CLOSE;
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}

/** The SQLSTATEs of the ErrorResponses in a server answer. */
function errorCodes(answer) {
  const codes = [];
  for (const message of messages(answer)) {
    if (message.type !== ERROR) continue;
    for (let at = message.start + 5; at < message.end && answer[at] !== 0;) {
      const value = cString(answer, at + 1);
      if (answer[at] === 0x43 /* 'C': the code field */) codes.push(value);
      at += 2 + Buffer.byteLength(value);
    }
  }
  return codes;
}

/**
 * The statements this session holds, by name. `rewrite(request)` takes a client's request (whole messages, never the
 * start-up packet) and returns the bytes to run and a function that turns the database's answer to them into the
 * answer the client expects.
 */
export function preparedStatements() {
  /** Prepared by a Parse that succeeded, with that Parse's bytes. */
  const prepared = new Map();
  /** May exist, not known to match: closed before the next Parse under the name. */
  const uncertain = new Set();

  function rewrite(request) {
    const list = messages(request);
    let elided = null; // { name }: the request's first message, a Parse already prepared as sent
    const closes = [];
    const forwarded = []; // { name, parse, first }
    for (const [index, message] of list.entries()) {
      if (message.type === QUERY) {
        if (FORGETS_STATEMENTS.test(request.toString("utf8", message.start + 5, message.end - 1))) forgetAll();
        continue;
      }
      if (message.type === CLOSE && request[message.start + 5] === STATEMENT) {
        const name = cString(request, message.start + 6);
        if (name) {
          prepared.delete(name);
          uncertain.add(name);
        }
        continue;
      }
      if (message.type !== PARSE) continue;
      const name = cString(request, message.start + 5);
      if (!name) continue;
      const parse = request.subarray(message.start, message.end);
      if (index === 0 && prepared.get(name)?.equals(parse)) {
        elided = { name };
        continue;
      }
      if (prepared.has(name) || uncertain.has(name)) closes.push(closeStatement(name));
      forwarded.push({ name, parse: Buffer.from(parse), first: index === 0 });
    }
    if (!elided && !closes.length && !forwarded.length) return { bytes: request, answer: (answer) => answer };

    const body = elided ? request.subarray(list[0].end) : request;
    const bytes = closes.length ? Buffer.concat([...closes, body]) : body;
    return {
      bytes,
      answer(raw) {
        let answer = raw;
        for (let i = 0; i < closes.length && answer[0] === CLOSE_COMPLETE_TYPE; i++) answer = answer.subarray(5);
        for (const { name, parse, first } of forwarded) {
          uncertain.delete(name);
          prepared.delete(name);
          if (first && answer[0] === PARSE_COMPLETE_TYPE) prepared.set(name, parse);
          else if (!first) uncertain.add(name); // its ParseComplete is not told apart from the others': maybe prepared
        }
        if (!elided) return answer;
        if (errorCodes(answer).includes(NO_SUCH_STATEMENT)) {
          prepared.delete(elided.name);
          uncertain.add(elided.name);
        }
        return Buffer.concat([PARSE_COMPLETE, answer]);
      },
    };
  }

  function forgetAll() {
    for (const name of prepared.keys()) uncertain.add(name);
    prepared.clear();
  }

  return { rewrite, forgetAll };
}
