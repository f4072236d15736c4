"""What a calibrate prompt asks for, read the way a person at the pyramid reads it: the
shared helper of the tests that drive ``pyramid calibrate`` by its prompts."""

import re


def asked_die(prompt):
    """The content ``prompt`` asks to put in the head: a die's label (``blue``,
    ``grey-black``, ...), or ``empty`` when it asks for no die."""
    grey = re.search(r"the grey die with its (black|white)", prompt)
    if grey:
        return "grey-" + grey.group(1)
    die = re.search(r"release the (\w+) die", prompt)
    return die.group(1) if die else "empty"
