package org.logbase.shell;

import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.logbase.common.Echo;
import picocli.CommandLine;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * What picocli found wrong with a command line, in the shell's words ("unexpected argument 'x'",
 * not "Unmatched argument at index 3"), followed by the command's usage; and the commands a
 * mistyped one may have meant.
 */
final class ParseErrors {
  private ParseErrors() {}

  /** The message for a command line {@code e} refused; the user's words in it are cut short. */
  static String message(ParameterException e) {
    CommandLine command = e.getCommandLine();
    return what(e) + "; usage: " + usage(command);
  }

  /** The usage line of a command, such as {@code get TABLE ROW [--columns COLUMN[,COLUMN...]]}. */
  static String usage(CommandLine command) {
    command.getCommandSpec().usageMessage().width(1000); // one line (a parser is made per statement)
    String synopsis = command.getHelp().synopsis(0).strip().replaceAll("\\s+", " ");
    synopsis = synopsis.replaceFirst("^Usage: ", "");
    String root = command.getCommandSpec().root().name() + " ";
    return synopsis.startsWith(root) && command.getParent() != null ? synopsis.substring(root.length()) : synopsis;
  }

  private static String what(ParameterException e) {
    if (e instanceof UnmatchedArgumentException u) {
      List<String> unmatched = u.getUnmatched();
      String first = unmatched.isEmpty() ? "" : unmatched.get(0);
      if (first.startsWith("-")) {
        return "unknown option '" + Echo.of(first) + "'" + didYouMean(u.getSuggestions());
      }
      return (unmatched.size() == 1 ? "unexpected argument " : "unexpected arguments ") + unmatched.stream()
          .limit(3).map(w -> "'" + Echo.of(w) + "'").collect(Collectors.joining(", "))
          + (unmatched.size() > 3 ? ", ..." : "") + " (quote a value that holds spaces)";
    }
    if (e instanceof MissingParameterException m) {
      return "missing " + m.getMissing().stream().map(ParseErrors::label).collect(Collectors.joining(", "));
    }
    if (e.getCause() instanceof TypeConversionException c && e.getArgSpec() != null && c.getMessage() != null) {
      // "'abc' is not an int": picocli's own words around it were long enough to be cut short mid-value.
      return "invalid " + label(e.getArgSpec()) + ": " + Echo.of(c.getMessage());
    }
    String m = e.getMessage() == null ? "invalid input" : e.getMessage();
    return Echo.of(m.isEmpty() ? m : m.substring(0, 1).toLowerCase(Locale.ROOT) + m.substring(1));
  }

  private static String label(ArgSpec spec) {
    if (spec instanceof OptionSpec o) {
      return "option " + o.longestName();
    }
    return spec instanceof PositionalParamSpec p ? p.paramLabel() : String.valueOf(spec);
  }

  /** ", did you mean 'a' or 'b'?" for a non-empty list, else "". */
  static String didYouMean(Collection<String> suggestions) {
    if (suggestions.isEmpty()) {
      return "";
    }
    return "; did you mean " + suggestions.stream().limit(3).map(s -> "'" + s + "'")
        .collect(Collectors.joining(" or ")) + "?";
  }

  /** The names among {@code known} that {@code typed} is a prefix of, or at most two edits from. */
  static List<String> similar(String typed, Collection<String> known) {
    String t = typed.toLowerCase(Locale.ROOT);
    return known.stream().filter(k -> (t.length() >= 2 && k.startsWith(t)) || distance(t, k) <= (k.length() >= 5 ? 2 : 1))
        .sorted((a, b) -> Integer.compare(distance(t, a), distance(t, b))).toList();
  }

  /** Levenshtein distance: insertions, deletions and substitutions. */
  private static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitute, Math.min(previous[j] + 1, current[j - 1] + 1));
      }
      int[] t = previous;
      previous = current;
      current = t;
    }
    return previous[b.length()];
  }
}
