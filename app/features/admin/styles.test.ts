import { describe, expect, it } from "vitest";
import * as forms from "~/components/forms";
import * as styles from "./styles";

describe("the admin console's field classes", () => {
  it("are the shared form fields' own", () => {
    expect(styles.inputClass).toBe(forms.inputClass);
    expect(styles.labelClass).toBe(forms.labelClass);
  });
});
