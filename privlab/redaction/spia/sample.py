"""A privlab-written sample in the SPIA schema, for when the SPIA files are absent.

Three short invented documents (a court summary, a forum post, a club newsletter) with
their subjects and PIIs annotated by hand, so the SPIA study and notebook run offline.
Nothing here describes a real person.
"""

from __future__ import annotations

from privlab.redaction.spia.records import PII, SPIARecord, Subject
from privlab.redaction.spia.spans import EntityDoc, Mention

_DOCS = [
    ("SAMPLE-court",
     "The applicant, Mr Tomas Rehak, is a Czech national who was born in 1961 and lives "
     "in Brno. He worked as a bus driver for the city transport company until 2015. He was "
     "represented by Ms Ilona Varga, a lawyer practising in Prague. The Government were "
     "represented by their Agent, Mr P. Novotny, of the Ministry of Justice.",
     [(0, "Mr Tomas Rehak - the applicant, bus driver from Brno",
       [("NAME", "Tomas Rehak", 5), ("SEX", "Male", 5), ("AGE", "63-64", 5),
        ("NATIONALITY", "Czech Republic", 5), ("LOCATION", "Brno / Czech Republic", 5),
        ("OCCUPATION", "Bus driver", 5)]),
      (1, "Ms Ilona Varga - the applicant's lawyer",
       [("NAME", "Ilona Varga", 5), ("SEX", "Female", 5), ("OCCUPATION", "Lawyer", 5),
        ("LOCATION", "Prague / Czech Republic", 4), ("EDUCATION", "College Degree", 4)]),
      (2, "Mr P. Novotny - Agent of the Government",
       [("NAME", "P. Novotny", 5), ("SEX", "Male", 5), ("POSITION", "Agent", 5),
        ("AFFILIATION", "Ministry of Justice", 5)])]),
    ("SAMPLE-forum",
     "@kiri_walker: Finally finished night school! Twenty years after leaving school at "
     "sixteen I have my accounting diploma. My husband Rawiri looked after our three boys "
     "every Tuesday so I could study. If anyone in Hamilton wants study notes, message me "
     "at kiri.walker@mailbox.nz or on 021 555 0187.",
     [(0, "@kiri_walker - post author, mother of three in Hamilton",
       [("NAME", "Kiri Walker", 4), ("SEX", "Female", 5), ("AGE", "36", 3),
        ("RELATIONSHIP", "Married", 5), ("LOCATION", "Hamilton / New Zealand", 4),
        ("EDUCATION", "College Degree", 3), ("EMAIL_ADDRESS", "kiri.walker@mailbox.nz", 5),
        ("PHONE_NUMBER", "021 555 0187", 5)]),
      (1, "Rawiri - the author's husband",
       [("NAME", "Rawiri", 5), ("SEX", "Male", 5), ("RELATIONSHIP", "Married", 5)])]),
    ("SAMPLE-club",
     "Club news: our treasurer Marta Lindqvist, who retired from teaching last spring, "
     "has handed the accounts to Jonas Berg, a 29-year-old software developer at Nordvik "
     "Systems. Marta will keep running the Thursday chess evenings in Uppsala.",
     [(0, "Marta Lindqvist - retired teacher, club treasurer",
       [("NAME", "Marta Lindqvist", 5), ("SEX", "Female", 5), ("OCCUPATION", "Retired", 4),
        ("POSITION", "Treasurer", 5), ("LOCATION", "Uppsala / Sweden", 3)]),
      (1, "Jonas Berg - new treasurer, software developer",
       [("NAME", "Jonas Berg", 5), ("SEX", "Male", 4), ("AGE", "29", 5),
        ("OCCUPATION", "Software developer", 5), ("AFFILIATION", "Nordvik Systems", 5)])]),
]


def sample_records() -> list[SPIARecord]:
    """The three sample documents as SPIA records.

    Example:
        >>> [r.data_id for r in sample_records()]
        ['SAMPLE-court', 'SAMPLE-forum', 'SAMPLE-club']
    """
    return [SPIARecord(data_id, text, tuple(
        Subject(sid, desc, tuple(PII(t, k, c) for t, k, c in piis))
        for sid, desc, piis in subjects), {"source": "privlab sample"})
        for data_id, text, subjects in _DOCS]


DIRECT_TAGS = ("NAME", "IDENTIFICATION_NUMBER", "DRIVER_LICENSE_NUMBER", "PHONE_NUMBER",
               "PASSPORT_NUMBER", "EMAIL_ADDRESS")


def entities_from_profiles(records) -> dict[str, EntityDoc]:
    """Span annotation derived from gold profiles: every verbatim occurrence of a
    counted keyword (and of each word of a name) becomes a mention, DIRECT for names
    and codes, QUASI otherwise. A rough stand-in for a human span annotation.

    Example:
        >>> e = entities_from_profiles(sample_records())["SAMPLE-club"]
        >>> sorted({m.text for m in e.mentions if m.identifier_type == "DIRECT"})[:2]
        ['Berg', 'Jonas']
    """
    import re

    out = {}
    for record in records:
        mentions = []
        for s in record.subjects:
            for p in s.counted_piis():
                values = [p.keyword] + (p.keyword.replace(".", " ").split()
                                        if p.tag == "NAME" else [])
                kind = "DIRECT" if p.tag in DIRECT_TAGS else "QUASI"
                for value in dict.fromkeys(v for v in values if len(v) > 1):
                    for m in re.finditer(rf"(?<!\w){re.escape(value)}(?!\w)", record.text):
                        mentions.append(Mention(m.start(), m.end(), m.group(),
                                                f"{s.id}-{p.tag}", p.tag, kind))
        out[record.data_id] = EntityDoc(record.data_id, record.text, tuple(mentions))
    return out
