import { getZodConstraint } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { commentFormSchema } from "./comment-form";
import { COMMENT_CONSTRAINT } from "./ui/Comments";

describe("the comment form's constraints", () => {
  it("are the comment schema's, written out so the lesson page loads no zod", () => {
    expect(COMMENT_CONSTRAINT).toEqual(getZodConstraint(commentFormSchema));
  });
});
