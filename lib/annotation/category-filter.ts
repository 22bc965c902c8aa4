// Finding an error category by typing part of it, for the workspace's category picker (C).

type Searchable = { key: string; label: string; description: string };

/**
 * Categories whose label, key or description contains every typed word: those whose label starts
 * with the text first, then other label matches, then the rest, each in taxonomy order.
 */
export function filterCategories<T extends Searchable>(categories: T[], query: string): T[] {
  const text = query.trim().toLowerCase();
  const words = text.split(/\s+/).filter(Boolean);
  const rank = (category: T) => {
    const label = category.label.toLowerCase();
    return label.startsWith(text) ? 0 : words.every((word) => label.includes(word)) ? 1 : 2;
  };
  return categories
    .filter((category) =>
      words.every((word) => `${category.label} ${category.key} ${category.description}`.toLowerCase().includes(word)),
    )
    .map((category, index) => ({ category, index, rank: rank(category) }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map((entry) => entry.category);
}
