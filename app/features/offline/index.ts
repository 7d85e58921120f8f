// Offline practice's public face for other features (decision 0010). Light on purpose: the shell imports
// it on every signed-in page; the IndexedDB code loads only when used.
export { markAccount, unmarkAccount } from "./account-marker";
export { OFFLINE_PLAYER_PATH } from "./paths";
