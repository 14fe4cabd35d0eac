"""The quickstart corpus: twelve short texts about one well-known person.

The target is Albert Einstein, chosen because every text encoder has read a great deal
about him: removing his name leaves details (relativity, the patent office in Bern,
E = mc², Princeton) that a model still connects to him. Some texts name him; others
identify him only through those details, which is what a list of names cannot remove.
The texts were written for privlab from widely known public facts.
"""

from __future__ import annotations

TARGET = "Albert Einstein"

TEXTS: tuple[str, ...] = (
    'Albert Einstein published four landmark papers in 1905 while working in Bern.',
    "The patent clerk's theory of special relativity changed how physicists think about time.",
    "Einstein's equation E = mc² says that mass and energy are two faces of one quantity.",
    'He received the 1921 Nobel Prize in Physics for explaining the photoelectric effect.',
    'The wild-haired physicist spent his last twenty years at the Institute in Princeton.',
    'A famous photograph shows Einstein sticking out his tongue on his 72nd birthday.',
    'General relativity predicted that light bends around the sun, confirmed in the 1919 eclipse.',
    'He signed a 1939 letter to President Roosevelt warning that uranium could power a bomb.',
    'Albert played the violin badly but happily, and named his instrument Lina.',
    'The Swiss patent office in Bern employed him as a technical expert, third class.',
    'Gravitational waves, a century-old prediction of his field equations, were detected in 2015.',
    'Einstein declined the offer to become the second president of Israel in 1952.',
)

# Only the name: the most common and weakest redaction.
WEAK_CONCEPTS: tuple[str, ...] = ('Albert Einstein', 'Einstein', 'Albert')

# The name plus the identifying details a reader would use to recognise him.
STRONG_CONCEPTS: tuple[str, ...] = (
    'Albert Einstein',
    'Einstein',
    'Albert',
    'relativity',
    'special relativity',
    'general relativity',
    'E = mc²',
    'mc²',
    'patent clerk',
    'patent office',
    'Nobel Prize',
    'photoelectric effect',
    'physicist',
    'physicists',
    'Princeton',
    'Bern',
    'violin',
    'Lina',
    'field equations',
    'gravitational waves',
    'Roosevelt',
    'uranium',
    'bomb',
    'Israel',
    '1905',
    '1919 eclipse',
    'wild-haired',
    'tongue',
    '72nd birthday',
    'Physics',
    'Swiss',
)
