"""RedacBench redaction strategies: ``redact(text, policy) -> text``.

Members of :data:`strategies`: ``"masking"``, ``"none"``, ``"regex-pii"`` and
``"adversarial"``; :class:`Iterative` applies any strategy several times. Add one with
``@strategies.member("name", offline=..., oracle=False, description=...)``. See docs/methods/redaction-redacbench.md.
"""

from __future__ import annotations

import inspect
from abc import ABC, abstractmethod
from typing import Any, Callable, Sequence

from privlab.errors import invalid, wrong_type
from privlab.llm import ensure_client
from privlab.redaction.redacbench.data import Document, Policy
from privlab.registry import Registry

strategies = Registry("RedacBench strategy")


class Strategy(ABC):
    """A redaction strategy: ``redact(text, policy) -> text`` (final, validates).

    Attributes:
        name: display and provenance id.
    """

    name: str = "strategy"

    def oracle_on(self, documents: Sequence[Document]) -> bool:
        """Whether the strategy reads the answer key of ``documents`` (then its scores
        are an oracle's, never a headline). False unless a strategy says otherwise."""
        return False

    def redact(self, text: str, policy: Policy) -> str:
        """The text rewritten to satisfy ``policy``.

        Raises:
            TypeError: ``text`` is not a string or ``policy`` not a :class:`Policy`.
        """
        caller = f"{type(self).__name__}.redact"
        if not isinstance(text, str):
            raise wrong_type("text", caller, "a str", text)
        if not isinstance(policy, Policy):
            raise wrong_type("policy", caller, "a Policy", policy)
        out = self._redact(text, policy)
        if not isinstance(out, str):
            raise wrong_type("_redact result", caller, "a str", out)
        return out

    @abstractmethod
    def _redact(self, text: str, policy: Policy) -> str:
        """The strategy's work."""


MASK = "[REDACTED]"


class Masking(Strategy):
    """RedacBench's Masking: policy-derived keywords masked token by token.

    The keywords are the policy's ``keywords`` list, or the words an LLM client lists as
    violating the policy; gold keywords make it an oracle (:meth:`oracle_on`). See
    docs/methods/redaction-redacbench.md.

    Args:
        client: optional :class:`privlab.llm.LLMClient` that proposes the keywords.

    Example:
        >>> p = Policy("fin", "Money is confidential.", frozenset(), ("$2 million",))
        >>> Masking().redact("They lent $2 million.", p)
        'They lent [REDACTED].'
    """

    def __init__(self, client: Any = None):
        self.client = client
        self.name = "masking" + (f" ({client.model})" if client is not None else "")

    def oracle_on(self, documents: Sequence[Document]) -> bool:
        """True when masking by the data's keywords and some are gold values."""
        return self.client is None and any(
            p.keywords_from == "gold" for d in documents for p in d.policies)

    def keywords(self, text: str, policy: Policy) -> list[str]:
        """The words to mask for ``policy`` in ``text``."""
        if self.client is None:
            return list(policy.keywords)

        def validate(answer: Any) -> list[str]:
            words = answer.get("keywords") if isinstance(answer, dict) else None
            if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
                raise ValueError('expected {"keywords": ["...", ...]}')
            return words

        prompt = (f"Policy: {policy.text}\n\nText:\n<<<\n{text}\n>>>\n\nList every word or "
                  "phrase of the text, exactly as written, that reveals information the "
                  'policy makes confidential. Answer with JSON only: {"keywords": [...]}')
        return self.client.chat_json([{"role": "user", "content": prompt}], validate=validate)

    def _redact(self, text: str, policy: Policy) -> str:
        from privlab.sanitizers.text import concept_pattern

        pattern = concept_pattern(self.keywords(text, policy))
        return pattern.sub(MASK, text) if pattern else text


@strategies.member("masking", offline=True, oracle=False,
                   description="policy keywords masked token by token")
def _masking(client: Any = None, **_options: Any) -> Masking:
    # options meant for other members are ignored, so one set of settings serves any pick
    return Masking(client)


class NoRedaction(Strategy):
    """Returns the text unchanged (Security 0 with a perfect judge, Utility 1)."""

    name = "none"

    def _redact(self, text: str, policy: Policy) -> str:
        return text


@strategies.member("none", offline=True, oracle=False,
                   description="the text unchanged (baseline)")
def _no_redaction(**_options: Any) -> NoRedaction:
    return NoRedaction()


class SanitizerStrategy(Strategy):
    """Any privlab text sanitizer, used as a (policy-blind) redaction strategy.

    Args:
        name: a name in :data:`privlab.sanitizers.registry` (e.g. ``"regex-pii"``).
        **kwargs: passed to the sanitizer's factory.

    Example:
        >>> SanitizerStrategy("regex-pii").redact("Mail ann@x.ie", Policy("p", "", frozenset()))
        'Mail <EMAIL>'
    """

    def __init__(self, name: str, **kwargs: Any):
        from privlab.sanitizers import registry

        self.sanitizer = registry.create(name, **kwargs)
        self.name = f"sanitizer {name}"

    def _redact(self, text: str, policy: Policy) -> str:
        return self.sanitizer.sanitize([text])[0]


@strategies.member("regex-pii", offline=True, oracle=False,
                   description="privlab regex PII sanitizer (policy-blind)")
def _regex_pii(**_options: Any) -> SanitizerStrategy:
    return SanitizerStrategy("regex-pii")


class AdversarialRedaction(Strategy):
    """RedacBench's Adversarial Redaction: the model rewrites whatever violates the policy.

    Args:
        client: a :class:`privlab.llm.LLMClient`.
    """

    def __init__(self, client: Any = None):
        self.client = ensure_client(client, "AdversarialRedaction")
        self.name = f"adversarial ({getattr(self.client, 'model', '?')})"

    def _redact(self, text: str, policy: Policy) -> str:
        def validate(answer: Any) -> str:
            out = answer.get("redacted") if isinstance(answer, dict) else None
            if not isinstance(out, str):
                raise ValueError('expected {"redacted": "..."}')
            return out

        prompt = (f"Policy: {policy.text}\n\nText:\n<<<\n{text}\n>>>\n\nRewrite the text so "
                  "that nothing the policy makes confidential can be read or inferred from "
                  "it, directly or from context. Keep every other piece of information and "
                  'the style. Answer with JSON only: {"redacted": "..."}')
        return self.client.chat_json([{"role": "user", "content": prompt}], validate=validate)


@strategies.member("adversarial", offline=False, oracle=False,
                   description="LLM rewrites what violates the policy")
def _adversarial(client: Any = None, **_options: Any) -> AdversarialRedaction:
    return AdversarialRedaction(client)


class Iterative(Strategy):
    """Apply a strategy (or a function, or a registry name) ``rounds`` times, each round to
    the previous round's output.

    Example:
        >>> p = Policy("x", "", frozenset(), ("a",))
        >>> Iterative(Masking(), 2).name
        'masking x2'
    """

    def __init__(self, base: Strategy | Callable[..., str] | str, rounds: int = 2):
        base = as_strategy(base, "base", "Iterative")
        if not isinstance(rounds, int) or rounds < 1:
            raise invalid("rounds", "Iterative", "an int >= 1", rounds)
        self.base, self.rounds = base, rounds
        self.name = f"{base.name} x{rounds}"

    def oracle_on(self, documents: Sequence[Document]) -> bool:
        return self.base.oracle_on(documents)

    def _redact(self, text: str, policy: Policy) -> str:
        for _ in range(self.rounds):
            text = self.base.redact(text, policy)
        return text


class FunctionStrategy(Strategy):
    """Any function as a strategy: ``f(text)``, or ``f(text, policy_text)`` if it takes two.

    Args:
        function: the user's redaction function; it must return a str.
        name: display and provenance id (default the function's name).

    Example:
        >>> p = Policy("h", "Health is confidential.", frozenset())
        >>> FunctionStrategy(lambda t: t.replace("ill", "[X]")).redact("Ann is ill.", p)
        'Ann is [X].'
        >>> FunctionStrategy(lambda t, policy: policy).redact("Ann is ill.", p)
        'Health is confidential.'
    """

    def __init__(self, function: Callable[..., str], name: str | None = None):
        if not callable(function):
            raise wrong_type("function", "FunctionStrategy", "a callable", function)
        self.function = function
        self.takes_policy = _positional_arity(function) >= 2
        self.name = name or getattr(function, "__name__", type(function).__name__)
        if self.name == "<lambda>":
            self.name = "your function"

    def _redact(self, text: str, policy: Policy) -> str:
        out = self.function(text, policy.text) if self.takes_policy else self.function(text)
        if not isinstance(out, str):
            raise wrong_type("function", "FunctionStrategy", "a function returning a str",
                             out, "Return the redacted text itself.")
        return out


def _positional_arity(function: Callable[..., Any]) -> int:
    """How many positional arguments ``function`` accepts (2 for ``*args``; 1 if unknown)."""
    try:
        params = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return 1
    if any(p.kind is p.VAR_POSITIONAL for p in params):
        return 2
    return sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params)


def as_strategy(value: Any, parameter: str, caller: str) -> Strategy:
    """``value`` as a :class:`Strategy`: a Strategy as it is, a registry name built, a
    function wrapped in :class:`FunctionStrategy`.

    Example:
        >>> as_strategy(str.upper, "strategy", "evaluate").name
        'upper'
    """
    if isinstance(value, Strategy):
        return value
    if isinstance(value, str):
        if value in strategies.names():
            return strategies.create(value)
        raise invalid(parameter, caller, f"a Strategy, a function or one of "
                      f"{strategies.names()}", value)
    if callable(value):
        return FunctionStrategy(value)
    raise wrong_type(parameter, caller, "a Strategy, a registry name or a function "
                     "text -> text (or (text, policy_text) -> text)", value,
                     "Pass your redaction function itself; it is wrapped for you.")


__all__ = ["AdversarialRedaction", "FunctionStrategy", "Iterative", "MASK", "Masking",
           "NoRedaction", "SanitizerStrategy", "Strategy", "as_strategy", "strategies"]
