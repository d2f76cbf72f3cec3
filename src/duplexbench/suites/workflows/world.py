"""A seeded synthetic world: people, companies, identifiers, dates and amounts.

Every value has a stored form (what the artifact holds) and a spoken form
(what the caller says). The same seed always gives the same world.
"""

from __future__ import annotations

import datetime
import random
import string
from dataclasses import dataclass
from typing import Any

from duplexbench.suites.workflows.catalog import FieldTemplate
from duplexbench.suites.workflows.pools import PRIVATE, PoolName, Pools

FIRST = (
    "Priya",
    "Daniel",
    "Amara",
    "Jonas",
    "Mei",
    "Tomás",
    "Leila",
    "Owen",
    "Ingrid",
    "Kwame",
    "Sofia",
    "Rahul",
    "Hannah",
    "Mateo",
    "Yuki",
    "Grace",
    "Emeka",
    "Lucia",
    "Noah",
    "Fatima",
)
LAST = (
    "Raman",
    "Okafor",
    "Lindqvist",
    "Haddad",
    "Nakamura",
    "Brennan",
    "Szymanski",
    "Adeyemi",
    "Castellanos",
    "Whitfield",
    "Oyelaran",
    "Kowalczyk",
    "Marchetti",
    "Thorvaldsen",
    "Iyer",
    "Delacroix",
    "Achterberg",
    "Quiñones",
    "Fairweather",
    "Abernathy",
)
ORGANIZATIONS = {
    "healthcare": ("Fabrikam Health", "Riverbend Clinic"),
    "finance": ("Alder Capital", "Meridian Credit Union"),
    "insurance": ("Blue Harbor Insurance", "Keystone Mutual"),
    "legal": ("Granite Peak Legal", "Whitmore and Vance"),
    "retail": ("Lumen Retail", "Northwind Traders"),
    "hospitality": ("Cobalt Hospitality", "Seabright Hotels"),
    "real_estate": ("Riverside Realty", "Oakmont Properties"),
    "manufacturing": ("Alder Manufacturing", "Tarn Fabrication"),
    "technology": ("Contoso Cloud", "Vireo Systems"),
    "government": ("the County Permits Office", "the City Records Office"),
    "education": ("Summit Learning", "Lakeshore College"),
    "logistics": ("Contoso Logistics", "Pinecrest Freight"),
    "telecom": ("Meridian Telecom", "Skyline Mobile"),
    "airline": ("Juniper Air", "Coastal Airways"),
    "human_resources": ("PeopleFirst Staffing", "Harbor HR Services"),
    "horizontal_enterprise": ("Northwind Supplies", "Tailspin Group"),
}
COMPANIES = (
    "Northwind Supplies",
    "Contoso Logistics",
    "Fabrikam Health",
    "Blue Harbor Insurance",
    "Granite Peak Legal",
    "Lumen Retail",
    "Meridian Telecom",
    "Alder Manufacturing",
    "Cobalt Hospitality",
    "Riverside Realty",
    "Summit Learning",
    "Juniper Air",
)
STREETS = ("Birch Street", "Oak Avenue", "Maple Road", "Harbor Drive", "Cedar Lane", "Elm Court")
MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


@dataclass(frozen=True)
class Value:
    stored: Any
    spoken: str


def _ordinal(n: int) -> str:
    suffix = "th" if 11 <= n % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def spoken_date(day: datetime.date) -> str:
    return f"{MONTHS[day.month - 1]} {_ordinal(day.day)}, {day.year}"


def money_text(amount: float) -> str:
    return f"{amount:.2f}".removesuffix(".00")


PACKAGED = Pools(FIRST, LAST, COMPANIES, ORGANIZATIONS, STREETS)
POOLS: dict[PoolName, Pools] = {"packaged": PACKAGED, "private": PRIVATE}


class World:
    def __init__(self, rng: random.Random, pools: PoolName = "packaged") -> None:
        self.rng = rng
        self.pools = POOLS[pools]
        self.used_names: set[str] = set()

    def person(self) -> str:
        first, last = self.pools.first, self.pools.last
        for _ in range(100):
            name = f"{self.rng.choice(first)} {self.rng.choice(last)}"
            if name not in self.used_names:
                self.used_names.add(name)
                return name
        return f"{self.rng.choice(first)} {self.rng.choice(last)}"

    def organization(self, industry: str) -> str:
        return self.rng.choice(self.pools.organizations[industry])

    def company(self) -> str:
        return self.rng.choice(self.pools.companies)

    def identifier(self, pattern: str) -> str:
        out = []
        for ch in pattern:
            if ch == "L":
                out.append(
                    self.rng.choice(string.ascii_uppercase.replace("O", "").replace("I", ""))
                )
            elif ch == "D":
                out.append(self.rng.choice("23456789"))
            else:
                out.append(ch)
        return "".join(out)

    def date(self) -> datetime.date:
        return datetime.date(2026, 1, 5) + datetime.timedelta(days=self.rng.randrange(330))

    def value(self, spec: FieldTemplate) -> Value:
        rng = self.rng
        kind = spec.kind
        if kind == "person":
            name = self.person()
            return Value(name, name)
        if kind == "company":
            name = self.company()
            return Value(name, name)
        if kind == "id":
            ident = self.identifier(spec.pattern)
            return Value(ident, spell(ident))
        if kind == "date":
            day = self.date()
            return Value(day.isoformat(), spoken_date(day))
        if kind == "phone":
            number = f"555-{rng.randrange(200, 999)}-{rng.randrange(1000, 9999)}"
            return Value(number, number)
        if kind == "email":
            first, last = self.person().lower().split(" ", 1)
            address = f"{first[0]}.{last.replace(' ', '')}@example.com"
            return Value(address, address.replace(".", " dot ").replace("@", " at "))
        if kind == "address":
            street = f"{rng.randrange(2, 250)} {rng.choice(self.pools.streets)}"
            return Value(street, street)
        if kind == "money":
            amount = round(rng.uniform(spec.low, spec.high) / 5) * 5.0
            return Value(amount, f"{money_text(amount)} dollars")
        if kind in ("count", "percent"):
            n = rng.randrange(int(spec.low), int(spec.high) + 1)
            return Value(n, f"{n} percent" if kind == "percent" else str(n))
        if kind == "enum":
            choice = rng.choice(spec.choices)
            return Value(choice, choice)
        if kind == "text":
            text = rng.choice(spec.pool)
            return Value(text, text)
        return self._composite(spec)

    def _composite(self, spec: FieldTemplate) -> Value:
        rng = self.rng
        if spec.kind == "people":
            names = [self.person() for _ in range(rng.randrange(2, 5))]
            return Value(names, ", ".join(names[:-1]) + f" and {names[-1]}")
        if spec.kind == "items":
            items = rng.sample(list(spec.pool), rng.randrange(2, min(4, len(spec.pool)) + 1))
            return Value(items, ", then ".join(items))
        start = rng.randrange(9, 16)
        length = rng.choice((1, 1, 2))
        interval = f"{start:02d}:00-{start + length:02d}:00"
        return Value(interval, f"from {_clock(start)} to {_clock(start + length)}")


def spell(ident: str) -> str:
    """An identifier read out character by character ("K 4 7 dash 2 9")."""
    return " ".join("dash" if ch == "-" else ch for ch in ident)


def _clock(hour: int) -> str:
    return f"{hour - 12 if hour > 12 else hour} {'pm' if hour >= 12 else 'am'}"
