import { getZodConstraint } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { emailChangeSchema, nameSchema, whatsappSchema } from "./account-schemas";
import { PROFILE_CONSTRAINTS } from "./ui/account-panels";

describe("the profile forms' constraints", () => {
  it("are the schemas', written out so /config loads no zod", () => {
    expect(PROFILE_CONSTRAINTS.name).toEqual(getZodConstraint(nameSchema));
    expect(PROFILE_CONSTRAINTS.whatsapp).toEqual(getZodConstraint(whatsappSchema));
    expect(PROFILE_CONSTRAINTS.email).toEqual(getZodConstraint(emailChangeSchema("learner@example.com")));
  });
});
