import { num, pick, round, seeded, text, type Answer } from "./seeded.js";

const sentences = (body: string) => body.split(/(?<=[.!?])\s+/).filter(Boolean);

export const summarize: Answer = (input) => {
  const body = text(input.text, "").length ? String(input.text).slice(0, 20_000) : "No text was given.";
  const maxWords = Math.min(400, Math.max(10, Math.round(num(input.max_words, 60))));
  const parts = sentences(body);
  const summary = parts.slice(0, 2).join(" ").split(/\s+/).slice(0, maxWords).join(" ");
  return {
    summary,
    key_points: parts.slice(0, 3).map((s) => s.slice(0, 120)),
    input_chars: body.length,
    model: "digest-large-2025-10",
  };
};

export const sentiment: Answer = (input) => {
  const body = text(input.text, "");
  const positive = (body.match(/\b(good|great|love|excellent|fast|happy)\b/gi) ?? []).length;
  const negative = (body.match(/\b(bad|slow|hate|awful|broken|sad)\b/gi) ?? []).length;
  const score = round((positive - negative) / Math.max(1, positive + negative), 2);
  return { label: score > 0.2 ? "positive" : score < -0.2 ? "negative" : "neutral", score, model: "digest-sentiment-3" };
};

export const keywords: Answer = (input) => {
  const words =
    text(input.text, "")
      .toLowerCase()
      .match(/[a-z]{5,}/g) ?? [];
  const counts = new Map<string, number>();
  for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
  const top = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 8);
  return { keywords: top.map(([word, count]) => ({ word, count })) };
};

export const generateImage: Answer = (input, now) => {
  const prompt = text(input.prompt, "a lighthouse at dawn, watercolour");
  const r = seeded(prompt);
  const id = Math.floor(r() * 1e12).toString(36);
  return {
    id: `img_${id}`,
    prompt,
    size: text(input.size, "1024x1024"),
    url: `https://cdn.pixelforge.example/renders/${id}.png`,
    expires_at: new Date(now.getTime() + 3_600_000).toISOString(),
    seed: Math.floor(r() * 1e9),
  };
};

export const upscaleImage: Answer = (input) => {
  const source = text(input.image_url, "https://cdn.pixelforge.example/renders/sample.png");
  const factor = Math.min(4, Math.max(2, Math.round(num(input.factor, 2))));
  return { source, factor, url: source.replace(/(\.\w+)?$/, `@${factor}x.png`) };
};

export const mintAvatar: Answer = (input) => {
  const handle = text(input.handle, "satoshi");
  const r = seeded(handle);
  return { handle, style: pick(r, ["pixel", "claymation", "anime", "low-poly"]), url: `https://quickmint.example/a/${handle}.png` };
};
