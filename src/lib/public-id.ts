import { randomBytes } from "node:crypto";

const ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";

/** A public, unguessable id: `prefix`, an underscore and 26 base32 characters (130 random bits). */
export const publicId = (prefix: string) => `${prefix}_${[...randomBytes(26)].map((b) => ALPHABET[b & 31]).join("")}`;
