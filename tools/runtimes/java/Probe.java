// The obvious Java (JDK) standard-library calls for the register entries whose answer depends
// on a runtime (specs/interpretations.toml `runtimes`). Each line printed is
// "ENTRY<TAB>PROBE<TAB>OBSERVED"; `python -m tools runtimes` runs this and groups the lines.
// The JDK has no JSON parser: JSON entries (INT-15..18, INT-41, INT-42) are not probed here.
import java.io.BufferedReader;
import java.io.StringReader;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

public class Probe {
    static final int[] SPACES = {0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x1C, 0x1D, 0x1E, 0x1F, 0x20, 0x85, 0xA0,
        0x1680, 0x180E, 0x2000, 0x200A, 0x200B, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF};

    static void out(String entry, String probe, Object observed) {
        System.out.println(entry + "\t" + probe + "\t" + observed);
    }

    static String points(String s) {
        List<String> parts = new ArrayList<>();
        s.codePoints().forEach(p -> parts.add(String.format("U+%04X", p)));
        return String.join(" ", parts);
    }

    public static void main(String[] args) throws Exception {
        StringBuilder trimmed = new StringBuilder(), stripped = new StringBuilder(), split = new StringBuilder();
        for (int p : SPACES) {
            String c = new String(Character.toChars(p));
            if ((c + "a").trim().equals("a")) trimmed.append(c);
            if ((c + "a").strip().equals("a")) stripped.append(c);
            if (("a" + c + "b").split("\\s+").length == 2) split.append(c);
        }
        out("INT-05", "String.trim() removes", points(trimmed.toString()));
        out("INT-05", "String.strip() removes", points(stripped.toString()));
        out("INT-05", "split(\"\\\\s+\") splits at", points(split.toString()));
        out("INT-06", "toLowerCase(Locale.ROOT)(U+0130 U+03A3)", points("\u0130\u03a3".toLowerCase(Locale.ROOT)));
        out("INT-06", "toLowerCase(Locale.ROOT)(AΣ)", points("A\u03a3".toLowerCase(Locale.ROOT)));
        out("INT-07", "length() of \"é😀\"", "é\uD83D\uDE00".length());
        List<String> names = new ArrayList<>(List.of("\uff61", "\uD83D\uDE00"));
        Collections.sort(names);
        out("INT-33", "Collections.sort([U+FF61, U+1F600])", points(String.join("", names)));
        BufferedReader reader = new BufferedReader(new StringReader("a\r\nb\rc\n\nd\r"));
        List<String> lines = new ArrayList<>();
        for (String line; (line = reader.readLine()) != null; ) lines.add("\"" + line.replace("\r", "\\r") + "\"");
        out("INT-14", "BufferedReader.readLine() lines of \"a\\r\\nb\\rc\\n\\nd\\r\"", String.join(" ", lines));
        for (String s : new String[] {"2024-01-02T03:04:05Z", "2024-01-02t03:04:05z", "2024-01-02T03:04:05-00:00",
                "2024-01-02T03:04:60Z", "2024-01-02T24:00:00Z", "20240102T030405Z", "2024-01-02T03:04:05.1234567891Z"}) {
            String verdict;
            try {
                verdict = "accepted " + Instant.parse(s);
            } catch (Exception e) {
                verdict = "rejected";
            }
            out("INT-20", "Instant.parse(\"" + s + "\")", verdict);
        }
        out("INT-21", "Instant.toString() of 05.120Z", Instant.parse("2024-01-02T03:04:05.120Z"));
        out("INT-01", "Double.toString of 2.0 1e21 1e-7 -0.0 0.1",
            Double.toString(2.0) + " " + Double.toString(1e21) + " " + Double.toString(1e-7) + " " + Double.toString(-0.0) + " " + Double.toString(0.1));
        List<String> pows = new ArrayList<>();
        for (int i = 1; i <= 400; i++) {
            pows.add(Long.toHexString(Double.doubleToRawLongBits(Math.pow(0.5, i / 64.0 + i / 1000.0))));
        }
        out("INT-04", "pow(0.5, i/64 + i/1000), i = 1..400 (bits)", String.join(" ", pows));
    }
}
