import { z } from "zod";

import { LANGUAGES } from "@/lib/records/languages";
import { singleLineText } from "./text";

/** bcrypt reads only the first 72 bytes of a password: refuse longer ones rather than ignore their end. */
const PASSWORD_MAX_BYTES = 72;

/** The one password rule, for the web forms and the CLI alike. */
export const passwordSchema = z
  .string()
  .min(10, "Use at least 10 characters.")
  .refine(
    (password) => new TextEncoder().encode(password).length <= PASSWORD_MAX_BYTES,
    `Use at most ${PASSWORD_MAX_BYTES} bytes (about ${PASSWORD_MAX_BYTES} letters, fewer with accents or symbols).`,
  );

export const firstAdminSchema = z.object({
  email: z.string().trim().email("Enter an email address."),
  name: singleLineText()
    .trim()
    .max(100)
    .optional()
    .transform((value) => value || null),
  password: passwordSchema,
  setupCode: z.string().trim().min(1, "Enter the setup code from the server's console.").max(40),
});

export const acceptInvitationSchema = z.object({
  token: z.string().min(10).max(200),
  name: singleLineText()
    .trim()
    .max(100)
    .optional()
    .transform((value) => value || null),
  password: passwordSchema,
});

export const inviteSchema = z.object({
  email: z.string().trim().email("Enter an email address."),
  role: z.enum(["ADMIN", "REVIEWER", "ANNOTATOR"]),
  languages: z.array(z.enum(LANGUAGES)).max(LANGUAGES.length),
});
export type InviteInput = z.input<typeof inviteSchema>;

/** An invitation's one-time link, as the admin's form and `POST /api/v1/invitations` answer it. */
export const invitationLinkSchema = z.object({
  id: z.string(),
  link: z.url(),
  expiresAt: z.iso.datetime(),
});
export type InvitationLink = z.infer<typeof invitationLinkSchema>;

export const updateAccessSchema = z.object({
  userId: z.string().min(1),
  role: z.enum(["ADMIN", "REVIEWER", "ANNOTATOR"]),
  languages: z.array(z.enum(LANGUAGES)),
});

export const tokenNameSchema = z.object({
  name: singleLineText().trim().min(1, "Give the token a name.").max(60),
});
export const tokenIdSchema = z.object({ tokenId: z.string().min(1) });
export const userDisabledSchema = z.object({ userId: z.string().min(1), disabled: z.boolean() });
export const invitationIdSchema = z.object({ invitationId: z.string().min(1) });
