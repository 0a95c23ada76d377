# standard.names.es — the standard board's places as Spanish players write them:
# more names for places standard.geography names (NAMES abbr name ...;
# '+' stands for a space).  Written with their accents folded (the order
# reader folds what players type: "Nordsee", "Schwarzes Meer", "Tirreno").
# A name another language's file or standard.geography already has is
# not repeated; no name here is a common English word.

NAMES bar mar+de+barents
NAMES bel belgica
NAMES bla mar+negro
NAMES bot golfo+de+botnia
NAMES bur borgona
NAMES con constantinopla
NAMES den dinamarca
NAMES eas mediterraneo+oriental
NAMES eng canal+de+la+mancha la+mancha
NAMES gal galitzia
NAMES gas gascuna
NAMES hel bahia+de+heligoland
NAMES hol holanda paises+bajos
NAMES ion mar+jonico
NAMES iri mar+de+irlanda
NAMES lyo golfo+de+leon
NAMES mao atlantico+medio atlantico+central
NAMES mar marsella
NAMES mos moscu
NAMES naf norte+de+africa africa+del+norte
NAMES nao atlantico+norte
NAMES nap napoles
NAMES nth mar+del+norte
NAMES nwg mar+de+noruega
NAMES nwy noruega
NAMES pic picardia
NAMES pie piamonte
NAMES pru prusia
NAMES smy esmirna
NAMES spa espana
NAMES stp san+petersburgo
NAMES swe suecia
NAMES swi suiza
NAMES tun tunez
NAMES ukr ucrania
NAMES ven venecia
NAMES vie viena
NAMES wal pais+de+gales
NAMES war varsovia
NAMES wes mediterraneo+occidental
