"""Word lists the contextual adversary reads a text with: roles, kin, titles, education.

Each list is general knowledge written for privlab (what a lawyer or a judge usually
studied, which kin noun names a woman), not values taken from any annotation.
"""

from __future__ import annotations

import re

#: Titles before a name -> sex ("" when the title says nothing about it).
TITLES = {"mr": "Male", "mrs": "Female", "ms": "Female", "miss": "Female", "sir": "Male",
          "lady": "Female", "mister": "Male", "madam": "Female", "dr": "", "judge": "",
          "prof": "", "professor": ""}

#: Kin nouns -> (sex of the relative, is a spouse).
KIN = {"wife": ("Female", True), "husband": ("Male", True), "spouse": ("", True),
       "son": ("Male", False), "daughter": ("Female", False), "mother": ("Female", False),
       "father": ("Male", False), "brother": ("Male", False), "sister": ("Female", False),
       "partner": ("", False), "girlfriend": ("Female", False), "boyfriend": ("Male", False),
       "fiancé": ("Male", False), "fiancée": ("Female", False), "uncle": ("Male", False),
       "aunt": ("Female", False), "nephew": ("Male", False), "niece": ("Female", False),
       "grandmother": ("Female", False), "grandfather": ("Male", False),
       "grandson": ("Male", False), "granddaughter": ("Female", False),
       "mom": ("Female", False), "mum": ("Female", False), "dad": ("Male", False),
       "cousin": ("", False), "child": ("", False), "baby": ("", False),
       "colleague": ("", False), "boss": ("", False), "manager": ("", False),
       "friend": ("", False), "neighbour": ("", False), "neighbor": ("", False)}

#: Words a writer uses of themself -> sex ("as a proud dad", "married guy").
SELF_SEX = {"dad": "Male", "father": "Male", "husband": "Male", "guy": "Male", "man": "Male",
            "boyfriend": "Male", "son": "Male", "mom": "Female", "mum": "Female",
            "mother": "Female", "wife": "Female", "woman": "Female", "girl": "Female",
            "lady": "Female", "girlfriend": "Female", "daughter": "Female"}

#: Months, for dates of birth.
MONTHS = {m: i for i, m in enumerate(
    ("january", "february", "march", "april", "may", "june", "july", "august", "september",
     "october", "november", "december"), start=1)}

# --------------------------------------------------------------------------- roles
# Each role: a pattern, then what the role implies. ``occupation``/``position`` may use
# "{0}" for the matched phrase; a fixed value is either the role noun itself (the pattern
# matches it) or a value of the development split's annotation (see
# privlab.redaction.spia.split). ``court`` marks officials of the court and ``state``
# officials of the respondent state: labels only, no value is filled from them.
_CAP = r"[A-Z][\w'’.-]*"
ROLES: list[dict] = [
    {"pattern": r"\b(?:their|its|the Government's|as) (?:Co-|Deputy )?Agents?\b",
     "position": "{0}", "state": True, "degree": True},
    {"pattern": r"\b(?:Acting |Vice-)?President of the (?:\w+ )?(?:Section|Chamber)\b",
     "position": "{0}", "court": True, "degree": True},
    {"pattern": r"\b(?:Deputy )?(?:Section )?Registrar\b", "position": "{0}", "court": True,
     "degree": True},
    {"pattern": r"\b(?:lawyer|solicitor|barrister|advocate|attorney|counsel)s?\b",
     "occupation": "Lawyer", "degree": True},
    {"pattern": r"\b(?:chief |principal |deputy )?(?:public |military |district )?prosecutor\b",
     "occupation": "Public Prosecutor", "position": "{0}", "state": True, "degree": True},
    {"pattern": r"\b(?:investigating |military |civilian |presiding |trial |ad hoc )?judge\b",
     "occupation": "Judge", "position": "{0}", "state": True, "degree": True},
    {"pattern": rf"\bMinister (?:of|for) (?:the )?{_CAP}(?: (?:and |of |for |the )*{_CAP})*",
     "position": "{0}", "state": True, "degree": True, "affiliation": "ministry"},
    {"pattern": r"\b(?:district |provincial )?governor\b", "occupation": "Governor",
     "position": "Governor", "state": True, "degree": True},
    {"pattern": r"\bmayor\b", "occupation": "Mayor", "position": "Mayor", "state": True},
    {"pattern": r"\b(?:headman|muhtar)\b", "occupation": "Headman", "position": "Headman",
     "state": True},
    {"pattern": r"\b(?:medical |forensic )?expert\b", "occupation": "Expert"},
    {"pattern": r"\b(?:doctor|physician|surgeon|psychiatrist|pathologist)\b",
     "occupation": "Doctor", "degree": True},
    {"pattern": r"\b(?:police officer|policeman|gendarme|police superintendent)\b",
     "occupation": "Police Officer"},
    {"pattern": r"\b(?:soldier|army officer|military officer)\b",
     "occupation": "Military Officer"},
    {"pattern": r"\bjournalist\b", "occupation": "Journalist", "degree": True},
    {"pattern": r"\b(?:teacher|lecturer)\b", "occupation": "Teacher", "degree": True},
    {"pattern": r"\bprofessor\b", "occupation": "Professor", "degree": "PhD"},
    {"pattern": r"\b(?:software developer|software engineer|developer|programmer)\b",
     "occupation": "Software Developer", "degree": True},
    {"pattern": r"\bcivil engineer\b", "occupation": "Civil engineer", "degree": True},
    {"pattern": r"\bengineer\b", "occupation": "Engineer", "degree": True},
    {"pattern": r"\bnurse\b", "occupation": "Nurse", "degree": True},
    {"pattern": r"\baccountant\b", "occupation": "Accountant", "degree": True},
    {"pattern": r"\bresearcher\b", "occupation": "Researcher", "degree": True},
    {"pattern": r"\bdata analyst\b", "occupation": "Data Analyst", "degree": True},
    {"pattern": r"\b(?:farmer|shepherd)\b", "occupation": "Farmer"},
    {"pattern": r"\b(?:businessman|businesswoman|shop owner|business owner)\b",
     "occupation": "Business owner"},
    {"pattern": r"\b(?:chef|cook)\b", "occupation": "Chef"},
    {"pattern": r"\bpilot\b", "occupation": "Pilot"},
    {"pattern": r"\b(?:pharmacist|architect|economist|diplomat)\b", "occupation": "{0}",
     "degree": True},
    {"pattern": r"\b(?:driver|mechanic|electrician|plumber|cashier|clerk)\b",
     "occupation": "{0}"},
    {"pattern": r"\bunemployed\b", "occupation": "Unemployed"},
    {"pattern": r"\bretired\b", "occupation": "Retired"},
    {"pattern": r"\b(?:university|college) student\b", "occupation": "Student",
     "degree": "In College"},
    {"pattern": r"\bstudent\b", "occupation": "Student"},
]
for _role in ROLES:
    _role["regex"] = re.compile(_role["pattern"], re.I if not _role["pattern"].startswith(
        r"\bMinister") else 0)

#: Evidence of an education level in a person's own words.
EDUCATION_CUES = [(re.compile(r"\b(?:phd|ph\.d\.?|doctorate|doctoral)\b", re.I), "PhD"),
                  (re.compile(r"\b(?:high school student|in high school|in highschool)\b",
                              re.I), "In Highschool"),
                  (re.compile(r"\b(?:at university|at college|undergrad\w*|my (?:degree|"
                              r"thesis|dissertation|semester))\b", re.I), "In College"),
                  (re.compile(r"\b(?:graduated|bachelor'?s?|master'?s? degree|diploma|"
                              r"my degree)\b", re.I), "College Degree")]

#: Evidence of a relationship status.
RELATIONSHIP_CUES = [(re.compile(r"\b(?:widow|widower|widowed|late (?:wife|husband))\b", re.I),
                      "Widowed"),
                     (re.compile(r"\b(?:divorced?|ex-(?:wife|husband)|separated)\b", re.I),
                      "Divorced"),
                     (re.compile(r"\b(?:married|marriedlife|my (?:wife|husband)|"
                                 r"(?:his|her) (?:wife|husband)|spouse)\b", re.I), "Married"),
                     (re.compile(r"\b(?:engaged|my (?:girlfriend|boyfriend|fianc[ée]e?))\b",
                                 re.I), "In Relation")]


#: Capitalised words that are not names of people.
NOT_NAMES = frozenset({"government", "court", "article", "convention", "protocol", "rule",
                        "section", "chamber", "commission", "state", "republic", "ministry",
                        "applicant", "applicants", "agent", "president", "judge", "registrar",
                        "god", "allah", "hi", "hello", "thanks", "regards", "cheers", "location",
                        "name", "username", "user", "date", "rating", "subject", "error"})

#: Post headers that name the writer.
HEADERS = [re.compile(r"^\s*(?:Name|Username|User|Author|Reviewer|Posted by|From)\s*:\s*"
                      r"([^|\n]+?)\s*(?:\||\n|$)", re.I),
           re.compile(r"^\s*@([\w.-]+)\s*:"),
           re.compile(r"^\s*([A-Z][a-z]+(?: [A-Z][a-z]+)?)\s*:(?!\d)")]
CODE_PATTERNS = {
    "EMAIL_ADDRESS": re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"),
    "DRIVER_LICENSE_NUMBER": re.compile(r"\b[A-Z]{2}-DL-\d{5,}\b"),
    "IDENTIFICATION_NUMBER": re.compile(r"\b[A-Z]{2}-ID-\d{5,}\b|\b\d{3}-\d{2}-\d{4}\b"),
    "PASSPORT_NUMBER": re.compile(r"(?i:passport)[^\d\n]{0,25}?\b([A-Z]?\d{8,9})\b"),
    "PHONE_NUMBER": re.compile(
        r"(?<![\w-])(?:\+\d{1,3}[\s.-]?)?(?:\(\d{2,4}\)\s?|\d{2,4}[\s.-])?\d{3}[\s.-]?\d{3,4}"
        r"(?:x\d+)?(?![\w-])"),
}

__all__ = ["CODE_PATTERNS", "HEADERS", "NOT_NAMES", "EDUCATION_CUES", "KIN", "MONTHS",
           "RELATIONSHIP_CUES", "ROLES", "SELF_SEX", "TITLES"]
