"""The name pools a generated world draws from: the packaged suites' and the private ones.

The packaged suites (workflows-v1, -v2, -mini) were generated from `PACKAGED`
and must stay byte-identical, so it never changes. A private suite
(`duplexbench suite generate`) draws from `PRIVATE`, which shares no first
name, last name, company, organization or street with it: an agent tuned on
the public suites meets people and companies it has never seen (docs/suites.md,
"Private suites"). Both mix common and less common names, and spellings an ASR
may miss, in about the same proportions, so difficulty does not move with the
pool.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

PoolName = Literal["packaged", "private"]


@dataclass(frozen=True)
class Pools:
    first: tuple[str, ...]
    last: tuple[str, ...]
    companies: tuple[str, ...]
    organizations: Mapping[str, tuple[str, ...]]
    streets: tuple[str, ...]


PRIVATE_FIRST = (
    "Anika", "Marcus", "Chiara", "Bruno", "Aiko", "Ramón", "Zara", "Felix", "Astrid",
    "Kofi", "Elena", "Vikram", "Nadia", "Diego", "Hiro", "Clara", "Chidi", "Rosa",
    "Liam", "Samira", "Tobias", "Ines", "Ravi", "Maren", "Jalen", "Beatriz", "Omari",
    "Freya", "Arjun", "Selin",
)  # fmt: skip
PRIVATE_LAST = (
    "Petrovic", "Mbeki", "Halvorsen", "Yamamoto", "Gallagher", "Rasmussen", "Obi",
    "Ferreira", "Novak", "Sandoval", "Lindgren", "Kapoor", "Morrow", "Zielinski",
    "Eze", "Bianchi", "Vasquez", "Ostrowski", "Chaudhry", "Vanderberg", "Ashworth",
    "Okonkwo", "Bergstrom", "Santangelo", "Kristiansen", "Mwangi", "Hollister",
    "Dubois", "Takahashi", "Pemberton",
)  # fmt: skip
PRIVATE_COMPANIES = (
    "Brightwater Supply", "Ironwood Freight", "Larkspur Health", "Silverline Insurance",
    "Cedar Ridge Legal", "Marigold Retail", "Bluecrest Telecom", "Halcyon Manufacturing",
    "Sunport Hospitality", "Westgate Realty", "Evergreen Academy", "Kestrel Airways",
    "Quarry Hill Partners", "Redfern Logistics", "Amberline Systems", "Tidewater Group",
)  # fmt: skip
PRIVATE_ORGANIZATIONS = {
    "healthcare": ("Larkspur Medical Group", "Stonebridge Clinic"),
    "finance": ("Harrow Capital", "Pinnacle Savings Bank"),
    "insurance": ("Silverline Insurance", "Bridgewell Assurance"),
    "legal": ("Cedar Ridge Legal", "Ashby and Crane"),
    "retail": ("Marigold Retail", "Hearth and Home Stores"),
    "hospitality": ("Sunport Hospitality", "Lanternfield Inns"),
    "real_estate": ("Westgate Realty", "Highmoor Properties"),
    "manufacturing": ("Halcyon Manufacturing", "Brassworks Industries"),
    "technology": ("Amberline Systems", "Nimbus Data"),
    "government": ("the County Licensing Office", "the Town Planning Office"),
    "education": ("Evergreen Academy", "Ridgeview College"),
    "logistics": ("Ironwood Freight", "Redfern Logistics"),
    "telecom": ("Bluecrest Telecom", "Wavelength Mobile"),
    "airline": ("Kestrel Airways", "Northstar Air"),
    "human_resources": ("TalentBridge Staffing", "Crestview HR Partners"),
    "horizontal_enterprise": ("Brightwater Supply", "Tidewater Group"),
}
PRIVATE_STREETS = (
    "Willow Street", "Chestnut Avenue", "Spruce Road", "Lakeview Drive", "Aspen Lane",
    "Poplar Court", "Hawthorn Way", "Juniper Place",
)  # fmt: skip
PRIVATE = Pools(
    PRIVATE_FIRST, PRIVATE_LAST, PRIVATE_COMPANIES, PRIVATE_ORGANIZATIONS, PRIVATE_STREETS
)
