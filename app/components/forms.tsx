// Forms of the whole app: one conform hook over a zod schema — the same rules in the browser as on the server — on
// top of `~/components/form-fields` (the conform form, the labelled fields, `useServerForm`), re-exported here.
import { useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { z } from "zod";
import type { ServerFormOptions } from "./form-fields";

export * from "./form-fields";

export type SchemaFormOptions = Pick<ServerFormOptions, "id" | "defaultValue"> & {
  /** When the first validation runs in the browser (default: on submit). */
  shouldValidate?: "onSubmit" | "onBlur" | "onInput";
};

/**
 * conform form state for a zod schema, the same rules as the server's: validated in the browser on
 * submit (or as `shouldValidate` says), revalidated on input (errors clear while typing), and showing
 * the server's reply (`lastResult`) — the only feedback when JavaScript is off.
 */
export function useSchemaForm<Schema extends z.ZodType<Record<string, unknown>>>(
  schema: Schema,
  lastResult?: SubmissionResult<string[]> | null,
  { id, defaultValue, shouldValidate = "onSubmit" }: SchemaFormOptions = {},
) {
  type Fields = z.input<Schema> & Record<string, unknown>;
  return useForm<Fields, z.output<Schema>>({
    id,
    lastResult,
    defaultValue: defaultValue as never,
    constraint: getZodConstraint(schema),
    shouldValidate,
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
}
