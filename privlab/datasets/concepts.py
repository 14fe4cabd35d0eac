"""Concept sentence sets for calibrating the resolution scale (notebook 09).

Each set holds one-sentence descriptions that capture one familiar concept (dogs, cats,
oranges, lemons), written for privlab, plus the words that name the concept (what a
concept-list sanitizer removes). Users bring their own sets as text files with one
sentence per block, blocks separated by blank lines (the layout of the paper's
``data/*.txt``), read by :func:`load_concept_file` / :func:`load_concept_folder`.
"""

from __future__ import annotations

from pathlib import Path

from privlab.errors import invalid

DEFAULT_SETS: dict[str, tuple[str, ...]] = {
    "dogs": (
        "The old dog sleeps on the porch every afternoon.",
        "Our dog barks at the mail carrier twice a day.",
        "A puppy chased its own tail across the kitchen floor.",
        "She walks her dog along the river before work.",
        "The dog buried a bone under the apple tree.",
        "Two dogs played tug of war with a rope in the park.",
        "My neighbour trained his dog to fetch the newspaper.",
        "The rescue dog wagged its tail at every visitor.",
        "A wet dog shook itself dry right next to the sofa.",
        "The farm dog herded the sheep into the pen.",
        "Our dog waits by the door when the car pulls in.",
        "The dog howled along with the siren down the street.",
    ),
    "cats": (
        "The cat napped in a patch of sunlight on the rug.",
        "A kitten batted a ball of yarn under the bed.",
        "Our cat purrs loudly whenever someone opens a can.",
        "The cat knocked a glass off the table just to watch it fall.",
        "A stray cat waits outside the bakery every morning.",
        "The cat climbed the bookshelf and refused to come down.",
        "Two cats hissed at each other across the fence.",
        "My cat sleeps on my keyboard while I try to work.",
        "The cat stared at the bird feeder for an hour.",
        "A black cat crossed the lane in front of the bicycle.",
        "The cat kneads the blanket before curling up.",
        "Our cat hides in cardboard boxes whenever guests arrive.",
    ),
    "oranges": (
        "She peeled an orange and shared the segments with her brother.",
        "A bowl of oranges sat in the middle of the kitchen table.",
        "Fresh orange juice is the best part of a slow breakfast.",
        "The orange was so ripe that juice ran down his wrist.",
        "Orange groves stretch for miles along the valley road.",
        "He packed an orange in every lunchbox for the school trip.",
        "The smell of orange peel filled the whole room.",
        "A crate of oranges arrived from the market this morning.",
        "The orange rolled off the counter and under the fridge.",
        "My grandmother makes marmalade from bitter oranges.",
        "The orange tree in the yard gives fruit every winter.",
        "We squeezed a dozen oranges for the party punch.",
    ),
    "lemons": (
        "She sliced a lemon to put in the iced tea.",
        "A squeeze of lemon brightens the grilled fish.",
        "The lemon tree on the balcony finally has fruit.",
        "Lemon juice stung the small cut on his finger.",
        "The children sold lemonade made from fresh lemons.",
        "A bowl of lemons makes the kitchen look sunny.",
        "He zested a lemon over the cake batter.",
        "The lemon was so sour that she made a face.",
        "Lemon slices floated in the water pitcher.",
        "My aunt cleans the cutting board with half a lemon and salt.",
        "The recipe calls for the juice of two lemons.",
        "A lemon rolled across the market stall and into the street.",
    ),
}

CONCEPT_WORDS: dict[str, tuple[str, ...]] = {
    "dogs": ("dog", "dogs", "puppy", "puppies", "doggy", "pup", "pups"),
    "cats": ("cat", "cats", "kitten", "kittens", "kitty", "feline"),
    "oranges": ("orange", "oranges"),
    "lemons": ("lemon", "lemons", "lemonade"),
    "boats": ("boat", "boats", "sailboat", "sailboats", "ship", "ships"),
    "cars": ("car", "cars"),
    "desks": ("desk", "desks"),
    "paperclips": ("paperclip", "paperclips", "paper clip", "paper clips"),
}


def parse_concept_text(text: str) -> tuple[str, ...]:
    """Sentences from the blank-line-separated layout (inner line breaks become spaces).

    Example:
        >>> parse_concept_text("A dog.\\n\\nTwo\\ndogs.\\n\\n\\n")
        ('A dog.', 'Two dogs.')
    """
    blocks = [" ".join(block.split()) for block in text.replace("\r\n", "\n").split("\n\n")]
    return tuple(b for b in blocks if b)


def load_concept_file(path: str | Path) -> tuple[str, ...]:
    """The sentences of one concept file.

    Raises:
        ValueError: a missing or empty file.
    """
    path = Path(path)
    if not path.is_file():
        raise invalid("path", "load_concept_file", "an existing text file", str(path))
    sentences = parse_concept_text(path.read_text("utf-8"))
    if not sentences:
        raise invalid("path", "load_concept_file", "a file with at least one sentence", str(path))
    return sentences


def load_concept_folder(folder: str | Path) -> dict[str, tuple[str, ...]]:
    """``{concept: sentences}`` for every ``*.txt`` in ``folder`` (name from the file stem)."""
    folder = Path(folder)
    files = sorted(folder.glob("*.txt")) if folder.is_dir() else []
    if not files:
        raise invalid("folder", "load_concept_folder", "a folder holding *.txt concept files",
                      str(folder))
    return {f.stem: load_concept_file(f) for f in files}


def concept_words(concept: str) -> tuple[str, ...]:
    """Words that name ``concept`` (default: the name and its singular without a final s).

    Example:
        >>> concept_words("dogs")[:2], concept_words("kettles")
        (('dog', 'dogs'), ('kettle', 'kettles'))
    """
    if concept in CONCEPT_WORDS:
        return CONCEPT_WORDS[concept]
    singular = concept[:-1] if concept.endswith("s") else concept
    return tuple(dict.fromkeys([singular, concept]))


__all__ = ["CONCEPT_WORDS", "DEFAULT_SETS", "concept_words", "load_concept_file",
           "load_concept_folder", "parse_concept_text"]
