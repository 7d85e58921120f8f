// Placeholder: filled in by the stripe work of issue 12.
export async function handleStripe() {
  return false;
}
