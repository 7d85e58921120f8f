import { getZodConstraint } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { PROFILE_CONSTRAINTS } from "./account-panels";
import { emailChangeSchema, nameSchema, whatsappSchema } from "./account-schemas";

describe("the profile forms' constraints", () => {
  it("are the schemas', written out so /config loads no zod", () => {
    expect(PROFILE_CONSTRAINTS.name).toEqual(getZodConstraint(nameSchema));
    expect(PROFILE_CONSTRAINTS.whatsapp).toEqual(getZodConstraint(whatsappSchema));
    expect(PROFILE_CONSTRAINTS.email).toEqual(getZodConstraint(emailChangeSchema("learner@example.com")));
  });
});
