// The 7 bundled avatars (public/avatars/avatar-N.svg, Fluent Emoji flat, MIT): the number stored on
// users.avatar (1–7, default the second), the picture's URL and its name for screen readers.
export const AVATARS = [
  { id: 1, label: "Raposa" },
  { id: 2, label: "Gato" },
  { id: 3, label: "Panda" },
  { id: 4, label: "Coruja" },
  { id: 5, label: "Sapo" },
  { id: 6, label: "Coelho" },
  { id: 7, label: "Coala" },
] as const;

export const AVATAR_COUNT = AVATARS.length;
/** Spec §3: the second avatar until the learner picks another. */
export const DEFAULT_AVATAR = 2;

export const isAvatarId = (value: unknown): value is number =>
  Number.isInteger(value) && (value as number) >= 1 && (value as number) <= AVATAR_COUNT;

/** The static file of an avatar; anything out of range shows the default. */
export function avatarUrl(id: number | null | undefined): string {
  return `/avatars/avatar-${isAvatarId(id) ? id : DEFAULT_AVATAR}.svg`;
}
