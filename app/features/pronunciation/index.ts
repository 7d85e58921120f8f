// The pronunciation game's public face for other features and the app's jobs: its spends the sweep gives back.
export { abandonedAttempts } from "./attempts.server";
