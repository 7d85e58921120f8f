// Placeholder: filled in by the google work of issue 12.
export async function handleGoogle() {
  return false;
}
