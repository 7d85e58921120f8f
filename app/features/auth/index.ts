// Sign-in's public face for other features: the passwords table (the account page changes a password) and ending
// what a learner has open when their access ends.
export { passwordCredentials } from "./tables";
export { closeUserConnections } from "./sockets.server";
