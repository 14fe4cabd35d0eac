"""The declared split of the SPIA files: what the offline adversary was built on, and what
it is scored on.

Development: ``spia_panorama_531.jsonl`` minus the 151 documents of
``spia_panorama_151.jsonl``; evaluation: ``spia_panorama_151.jsonl`` and
``spia_tab_144.jsonl``. The 151 evaluation ids are listed here (ids only), so a
document's role is known without the data files.
See docs/decisions/2026-12-05-spia-development-split.md.

Example:
    >>> document_role("PANORAMA-014EB"), document_role("TAB-bf828"), document_role("PANORAMA-00000")
    ('evaluation', 'evaluation', 'development')
"""

from __future__ import annotations

from typing import Iterable

from privlab.errors import invalid

DEVELOPMENT_FILE = "spia_panorama_531.jsonl"
EVALUATION_FILES = ("spia_panorama_151.jsonl", "spia_tab_144.jsonl")
SPLIT_NAME = "spia-dev-380/eval-151+144"

#: The documents of ``spia_panorama_151.jsonl`` (``PANORAMA-`` + these), evaluation only.
PANORAMA_EVALUATION_IDS = frozenset("PANORAMA-" + x for x in (
    "014EB", "02049", "06079", "076CF", "07946", "079D2", "0BF74", "0C5CD", "0D79F", "128C0",
    "13C67", "14A05", "1833F", "1916A", "1932B", "194E0", "1A128", "1F055", "1F24D", "223CA",
    "22443", "24399", "2492D", "2C9FE", "342C6", "3BBCE", "3C3CE", "3C9E7", "401A8", "419DB",
    "44E2A", "48509", "4C363", "4CA65", "4DD41", "4DD58", "4F6E0", "505DC", "52101", "524A4",
    "526A5", "5387F", "555E8", "55E49", "56479", "593A0", "5E697", "5EE4A", "5FC0B", "5FC9A",
    "603C0", "6419B", "6516B", "67ED7", "68AE8", "699EC", "6C5C5", "6E947", "6F144", "72290",
    "72325", "72CAF", "72CF8", "73FC2", "7531F", "77016", "784FE", "78C00", "7B20C", "7D2B5",
    "7F99C", "7FE26", "80437", "83619", "85C27", "86D15", "8715B", "88850", "88B0F", "89842",
    "8C5D1", "8D385", "8D68C", "8F8EE", "8F9B8", "8FED2", "90A90", "911A5", "9122E", "91F01",
    "91F3C", "9555C", "9C241", "9D7F7", "9FB9D", "A1C43", "A1CB2", "A3318", "A3F06", "A6270",
    "A7B0A", "A8237", "A8E28", "AA40B", "ACE77", "AD706", "B0B79", "B2847", "B3DDD", "B4641",
    "B8A08", "BA95F", "BCDB2", "BE0DC", "BE959", "BED81", "BEFA3", "C36BA", "C3E4A", "C46AE",
    "C5CEC", "C8ED8", "CA462", "CE2E0", "D1AA1", "D3AD3", "D6BF9", "D6EF2", "D7FE6", "DB8FA",
    "DFD22", "E12CE", "E4824", "E58A3", "E6A70", "E7C29", "E9B0A", "EB4FF", "EE105", "EE6F4",
    "F0E33", "F1BB1", "F263D", "F40E1", "F4712", "F511B", "F6D57", "F9911", "FC437", "FCD42",
    "FF364",
))

ROLES = ("development", "evaluation")


def document_role(data_id: str) -> str:
    """``"evaluation"`` for a TAB document or one of PANORAMA-151, else ``"development"``."""
    if not isinstance(data_id, str) or not data_id:
        raise invalid("data_id", "document_role", "a SPIA data_id such as 'PANORAMA-014EB'",
                      data_id)
    if data_id.startswith("TAB-") or data_id in PANORAMA_EVALUATION_IDS:
        return "evaluation"
    return "development"


def select(records: Iterable, role: str | None) -> list:
    """The records of one role (``"development"`` or ``"evaluation"``), or all of them
    (``None``), in their order.

    Example:
        >>> from privlab.redaction.spia.records import SPIARecord
        >>> rs = [SPIARecord("PANORAMA-014EB", "", ()), SPIARecord("PANORAMA-00000", "", ())]
        >>> [r.data_id for r in select(rs, "development")]
        ['PANORAMA-00000']
    """
    if role is not None and role not in ROLES:
        raise invalid("split", "select", f"None or one of {list(ROLES)}", role)
    records = list(records)
    return records if role is None else [r for r in records if document_role(r.data_id) == role]


def describe(records: Iterable = ()) -> dict:
    """The split as provenance, with how many of ``records`` fall on each side.

    Example:
        >>> describe()["development"]
        'spia_panorama_531.jsonl minus the 151 documents of spia_panorama_151.jsonl (380 documents)'
    """
    counts = {role: 0 for role in ROLES}
    for r in records:
        counts[document_role(r.data_id)] += 1
    scored = [role for role in ROLES if counts[role]]
    return {"name": SPLIT_NAME,
            "development": f"{DEVELOPMENT_FILE} minus the 151 documents of "
                           f"{EVALUATION_FILES[0]} (380 documents)",
            "evaluation": " and ".join(EVALUATION_FILES),
            "rules_frozen_on": "development",
            "documents_scored": counts,
            "scored_on": scored[0] if len(scored) == 1 else "mixed" if scored else "none"}


__all__ = ["DEVELOPMENT_FILE", "EVALUATION_FILES", "PANORAMA_EVALUATION_IDS", "ROLES",
           "SPLIT_NAME", "describe", "document_role", "select"]
