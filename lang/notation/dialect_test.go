package notation

import (
	"strings"
	"testing"
)

// TestDialects reads texts of other tools in their dialects: the tree is
// oddsmith's of the same meaning, printed canonically, and reads back
// the same in oddsmith's own dialect.
func TestDialects(t *testing.T) {
	for _, c := range []struct {
		d         Dialect
		src, want string
	}{
		// Roll20: targets count dice and include the number.
		{Roll20, "3d6>3", "3d6cs>=3"},
		{Roll20, "3d6<3", "3d6cs<=3"},
		{Roll20, "3d6=6", "3d6cs6"},
		{Roll20, "10d10>7f1", "10d10cs>=7cf1"},
		{Roll20, "10d10>7f<2", "10d10cs>=7cf<=2"},
		{Roll20, "4d6kh3>4", "4d6kh3cs>=4"},
		{Roll20, "2d8r<2", "2d8r<=2"},
		{Roll20, "1d20ro<2", "1d20ro<=2"},
		{Roll20, "3d6!>5", "3d6!>=5"},
		{Roll20, "5d6r1", "5d6r1"},
		// Roll20's cs, cf, m and sorting only mark or order dice.
		{Roll20, "4d6kh3cs>5cf<2", "4d6kh3"},
		{Roll20, "1d20cs>19", "1d20"},
		{Roll20, "6d6m", "6d6"},
		{Roll20, "6d6m3", "6d6"},
		{Roll20, "4d6sd", "4d6"},
		{Roll20, "4d6sa + 2", "4d6 + 2"},
		// A pasted macro: chat command, inline roll, labels, words after.
		{Roll20, "/roll 1d20+5 Roll for initiative", "1d20 + 5"},
		{Roll20, "/gmroll 2d6", "2d6"},
		{Roll20, "[[2d6[Fire]+3]]", "2d6[Fire] + 3"},
		{Roll20, "  /r [[ 3d6 ]]  ", "3d6"},
		{Roll20, "[[ [[1d4]]d6 ]]", "(1d4)d6"},
		{Roll20, "[[1d20 + [[2d4]]]]", "1d20 + 2d4"},
		// Foundry: r once, rr always, x explodes, cs counts, cf counts
		// failures, df takes one away per failure; strict < and >.
		{Foundry, "5d6r1", "5d6ro1"},
		{Foundry, "1d20r<2", "1d20ro<2"},
		{Foundry, "1d20rr<3", "1d20r<3"},
		{Foundry, "1d20r", "1d20ro"},
		{Foundry, "2d10x", "2d10!"},
		{Foundry, "5d10x10", "5d10!10"},
		{Foundry, "2d10xo", "2d10!{1}"},
		{Foundry, "3d6x>=5", "3d6!>=5"},
		{Foundry, "3d6xo>=5", "3d6!>=5{1}"},
		{Foundry, "8d10x>=8cs>=8", "8d10!>=8cs>=8"},
		{Foundry, "8d10cs>=7", "8d10cs>=7"},
		{Foundry, "3d6cs", "3d6cs"},
		{Foundry, "10d10cs>=7df=1", "10d10cs>=7cf1"},
		{Foundry, "6d6cf<=3", "6d6cs<=3"},
		{Foundry, "6d6cf", "6d6cs1"},
		{Foundry, "6d6cs>4df", "6d6cs>4cf1"},
		{Foundry, "4d6kh3", "4d6kh3"},
		{Foundry, "2d20kh", "2d20kh"},
		{Foundry, "/r 1d20 + 2 # to hit", "1d20 + 2"},
		{Foundry, "2d6[fire] + 1d4[cold]", "2d6[fire] + 1d4[cold]"},
		{Foundry, "3d6>3", "3d6 > 3"},
		{Foundry, "3dc", "3d{0, 1}"},
		{Foundry, "1dc + 1", "1d{0, 1} + 1"},
		{Foundry, "floor(@level/2)d8", "(floor(level / 2))d8"},
		// rpg-dice-roller: targets count dice, strict as written.
		{DiceRoller, "5d10>=8", "5d10cs>=8"},
		{DiceRoller, "5d10>8", "5d10cs>8"},
		{DiceRoller, "4d6>4f<3", "4d6cs>4cf<3"},
		{DiceRoller, "3d6cs=6cf=1", "3d6"},
		{DiceRoller, "4d6s", "4d6"},
		{DiceRoller, "2d8r<2", "2d8r<2"},
		// Keep and drop each pick from all the dice.
		{DiceRoller, "4d6kh3dl1", "4d6dl1"},
		{DiceRoller, "4d6dl1kh2", "4d6dl2"},
		{DiceRoller, "5d6kh4kl3", "5d6dl1dh2"},
		{DiceRoller, "6d6dh1dl1>3", "6d6dl1dh1cs>3"},
		{DiceRoller, "6d6dh1dl1cs>3", "6d6dl1dh1"},
		// Roll20's matches, rpg-dice-roller's unique, min and max.
		{Roll20, "8d6mt", "8d6mt"},
		{Roll20, "8d6mt3", "8d6mt3"},
		{Roll20, "8d6mt>3", "8d6mt>=3"},
		{DiceRoller, "4d6u", "4d6u"},
		{DiceRoller, "4d6uo=5", "4d6uo5"},
		{DiceRoller, "4d6min3", "4d6min3"},
		{Foundry, "1d20min10", "1d20min10"},
		{Foundry, "4d6max5kh3", "4d6max5kh3"},
		// Explosions under keep and drop: every roll a die of its own.
		{Roll20, "5d10!k2", "5d10!ekh2"},
		{Roll20, "5d10!!k2", "5d10!!kh2"},
		{Foundry, "4d10xdl1", "4d10!edl1"},
		{DiceRoller, "4d6!kh3", "4d6!ekh3"},
		{Roll20, "3d6!p>5", "3d6!p>=5"},
		{Foundry, "5d10x5", "5d10!5"},
		// Groups.
		{Roll20, "{4d6+3d8}k4", "{4d6 + 3d8}kh4"},
		{Roll20, "{4d6, 3d8}kh1>10", "{4d6, 3d8}kh1cs>=10"},
		{Roll20, "{3d20+5}>21", "3d20cs>=16"},
		{Roll20, "{3d20+5}>21f<10", "3d20cs>=16cf<=5"},
		{Roll20, "{2d6+1d8-1}>4", "2d6cs>=5 + 1d8cs>=5"},
		{Roll20, "{4d6+2d8, 3d20+3}>40f<10", "{4d6 + 2d8, 3d20 + 3}cs>=40cf<=10"},
		{DiceRoller, "{3d20+5}>21", "{3d20 + 5}cs>21"},
		{Foundry, "{4d6, 3d8}kh", "{4d6, 3d8}kh"},
		{Foundry, "{4d6+3d8}kh", "4d6 + 3d8"},
		{Foundry, "{4d6+3d8}dl", "0"},
		{Foundry, "{2d20, d20+5}cf<5", "{2d20, d20 + 5}cs<5"},
		{Foundry, "{2d20, d20+5}cs>=15df<5", "{2d20, d20 + 5}cs>=15cf<5"},
		// rpg-dice-roller's comments and "not equal".
		{DiceRoller, "12d% /* a comment */", "12d%"},
		{DiceRoller, "3d6 // fire", "3d6"},
		{DiceRoller, "4d6 /* a\nb */ + 2", "4d6 + 2"},
		{DiceRoller, "36d152cs!=45", "36d152"},
		{DiceRoller, "450dF.1>0f!=1", "450d{-1, 0, 0, 0, 0, 1}cs>0cf<1cf>1"},
		{DiceRoller, "4d7>3f<>2", "4d7cs>3cf<2cf>2"},
		{DiceRoller, "10d8r!=5", "10d8r<5r>5"},
		{Roll20, "4d6 // 2", "4d6 // 2"},
		// A cap on the explosions of the whole term; xo: only the dice
		// rolled first explode, each at most once.
		{Foundry, "5d10x5>=8", "5d10!>=8{5 in all}"},
		{Foundry, "5d10x2>=8cs>=8", "5d10!>=8{2 in all}cs>=8"},
		{Foundry, "5d10xo2>=8", "5d10!>=8{1, 2 in all}"},
		{Foundry, "5d10X2=10", "5d10!10{2 in all}"},
		// oddsmith's own forms read the same in every dialect.
		{Roll20, "2d6 + 3", "2d6 + 3"},
		{Foundry, "d20 + bonus >= tn", "d20 + bonus >= tn"},
		{DiceRoller, "4d6kh3", "4d6kh3"},
	} {
		t.Run(c.d.String()+"/"+c.src, func(t *testing.T) {
			x, err := ParseIn(c.src, c.d)
			if err != nil {
				t.Fatalf("ParseIn(%q, %s): %v", c.src, c.d, err)
			}
			got := String(x)
			if got != c.want {
				t.Fatalf("ParseIn(%q, %s) = %s; want %s", c.src, c.d, got, c.want)
			}
			y, err := Parse(got)
			if err != nil || String(y) != got {
				t.Fatalf("%s does not read back in oddsmith's dialect: %v", got, err)
			}
		})
	}
}

// TestDialectRefusals: what a dialect means and oddsmith cannot compute
// is refused with one line naming it.
func TestDialectRefusals(t *testing.T) {
	for _, c := range []struct {
		d         Dialect
		src, want string
	}{
		{Foundry, "6d6sf<3", "Foundry's sf (subtract failures) is not supported"},
		{Foundry, "1d20ms>=15", "margin of success"},
		{Foundry, "6d6even", "count the even or odd dice"},
		{Foundry, "6d6cs>4cf<2", "either successes (cs) or failures (cf)"},
		{Foundry, "2d6xx", "the dice already explode"},
		{DiceRoller, "3d6!r1", "explodes before it rerolls"},
		{DiceRoller, "4d%!<>45", "with a \"not equal\" condition has no oddsmith form"},
		{DiceRoller, "4d6ro!=3", "rerolling once a die that is not 3"},
		{DiceRoller, "{4d6, 3d8}<>10", "a \"not equal\" target on a group"},
		{DiceRoller, "3d6min2!", "applies min and max before it explodes or rerolls"},
		{DiceRoller, "3d6max5r1", "applies min and max before it explodes or rerolls"},
		{DiceRoller, "(n)d6kh2dl1", "need a number of dice written as a number"},
		{Roll20, "3d6>", "expected a number"},
		{Roll20, "{3d20*2}>21", "write it as dice and numbers added"},
		{Roll20, "{10-3d20}>2", "a subtracted dice term"},
		{Roll20, "{4d6kh3}>4", "already keep, drop or count"},
		{Roll20, "{4d6+3d8}k2>4", "both keep or drop and a target"},
		{Roll20, "{5}>4", "has none"},
	} {
		t.Run(c.d.String()+"/"+c.src, func(t *testing.T) {
			_, err := ParseIn(c.src, c.d)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("ParseIn(%q, %s) = %v; want an error with %q", c.src, c.d, err, c.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("two lines: %q", err)
			}
		})
	}
}

func TestDialectNamed(t *testing.T) {
	for i, n := range Dialects() {
		d, err := DialectNamed(n)
		if err != nil || int(d) != i || d.String() != n {
			t.Fatalf("DialectNamed(%q) = %v, %v", n, d, err)
		}
	}
	if d, err := DialectNamed(""); err != nil || d != Oddsmith {
		t.Fatalf(`DialectNamed("") = %v, %v`, d, err)
	}
	if _, err := DialectNamed("Roll20"); err == nil || !strings.Contains(err.Error(), `did you mean "roll20"`) {
		t.Fatalf("DialectNamed(Roll20) = %v", err)
	}
}

// TestAttributes: a character sheet's attribute is a parameter in every
// dialect but oddsmith's, which names the spelling; a Roll20 query is
// refused with the parameter to write.
func TestAttributes(t *testing.T) {
	for _, c := range []struct {
		d         Dialect
		src, want string
	}{
		{Roll20, "1d20 + @{dex_mod}", "1d20 + dex_mod"},
		{Roll20, "@{selected|level}d6", "(level)d6"},
		{Roll20, "[[@{level}d8 + @{Strength Mod}]]", "(level)d8 + Strength_Mod"},
		{Foundry, "1d20 + @abilities.str.mod", "1d20 + abilities_str_mod"},
		{Foundry, "(@level)d6", "(level)d6"},
		{Foundry, "@prof*2", "prof * 2"},
	} {
		x, err := ParseIn(c.src, c.d)
		if err != nil || String(x) != c.want {
			t.Errorf("ParseIn(%q, %s) = %v, %v; want %s", c.src, c.d, x, err, c.want)
		}
	}
	for _, c := range []struct {
		d         Dialect
		src, want string
	}{
		{Oddsmith, "1d20 + @{str}", "@{str} is a character sheet's attribute (Roll20, Foundry): write a parameter, str, and give it with --set str=…"},
		{Oddsmith, "@abilities.str.mod", "write a parameter, abilities_str_mod"},
		{Roll20, "d20 + ?{Bonus|2}", "Roll20's query ?{Bonus|2} asks at roll time, which oddsmith cannot: write a parameter, Bonus, and give it with --set Bonus=2"},
		{Roll20, "d20 + @{str", `expected "}" to close the attribute`},
		{Foundry, "d20 + @", `expected an attribute's name after "@"`},
	} {
		_, err := ParseIn(c.src, c.d)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseIn(%q, %s) = %v; want %q", c.src, c.d, err, c.want)
		}
	}
}
