import { z } from "zod";

import { LANGUAGES } from "@/lib/records/languages";

export const passwordSchema = z.string().min(10, "Use at least 10 characters.").max(200, "Use at most 200 characters.");

export const firstAdminSchema = z.object({
  email: z.string().trim().email("Enter an email address."),
  name: z.string().trim().max(100).optional().transform((value) => value || null),
  password: passwordSchema,
});

export const acceptInvitationSchema = z.object({
  token: z.string().min(10).max(200),
  name: z.string().trim().max(100).optional().transform((value) => value || null),
  password: passwordSchema,
});

export const inviteSchema = z.object({
  email: z.string().trim().email("Enter an email address."),
  role: z.enum(["ADMIN", "REVIEWER", "ANNOTATOR"]),
  languages: z.array(z.enum(LANGUAGES)).max(LANGUAGES.length),
});

export const updateAccessSchema = z.object({
  userId: z.string().min(1),
  role: z.enum(["ADMIN", "REVIEWER", "ANNOTATOR"]),
  languages: z.array(z.enum(LANGUAGES)),
});

export const tokenNameSchema = z.object({ name: z.string().trim().min(1, "Give the token a name.").max(60) });
export const tokenIdSchema = z.object({ tokenId: z.string().min(1) });
export const invitationIdSchema = z.object({ invitationId: z.string().min(1) });
