// The shell's public face on the server: the signed-in layout's data and the client error reports
// (/api/errors and the server's own render errors). Its screens and client pieces are in ./ui and the flat modules
// root.tsx imports directly (theme, types, report-error: client code must not reach a .server file).
export { decodeReportBody, INVALID_REPORT, MAX_BODY_BYTES, parseErrorReport, saveErrorReport, saveServerError } from "./error-report.server";
export { loadShell } from "./shell.server";
