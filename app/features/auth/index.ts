// Sign-in's public face for other features: ending what a learner has open when their access ends.
export { closeUserConnections } from "./sockets.server";
