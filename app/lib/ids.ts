// Ids shared by server and browser code.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a canonical UUID (any version), the shape of every id in our tables. */
export const isUuid = (value: unknown): value is string => typeof value === "string" && UUID.test(value);
