// The billing feature's public face (features import each other only through index.ts).
export { BILLING_TEXT, formatBRL, type CreditPack } from "./packs";
