// Finds import circles among src/: files that, following their imports, come back to themselves.
// By default it follows every import, type-only ones too (a type a file takes from another ties
// the two as much as a value does); `--runtime` follows only the imports the compiled code keeps,
// what Node loads. test/model/import-circles.test.ts fails on any circle of the first kind.
//
//   node scripts/import-circles.mjs [--runtime] [folder]      (exit 1 when there is a circle)

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** Every .ts file below `root`, as paths relative to it. */
function sourceFiles(root, folder = '') {
  return fs.readdirSync(path.join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(root, relative);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [relative] : [];
  });
}

/** The module names a file imports: all of them, or only those the compiled code keeps. */
function importedNames(text, types) {
  // Compiling drops the imports used only as types, exactly as tsc does for dist/.
  const code = types ? text : ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  const source = ts.createSourceFile('file.ts', code, ts.ScriptTarget.ES2022, false);
  const names = [];
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      names.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      names.push(node.arguments[0].text);
    } else if (types && ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      names.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

/** file → the files of the tree it imports (relative imports only; `./x.js` names `x.ts`). */
export function importGraph(root, { types = true } = {}) {
  const files = new Set(sourceFiles(root));
  const graph = new Map();
  for (const file of files) {
    const targets = new Set();
    for (const name of importedNames(fs.readFileSync(path.join(root, file), 'utf8'), types)) {
      if (!name.startsWith('.')) continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), name)).replace(/\.js$/, '.ts');
      if (files.has(target)) targets.add(target);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/** The circles: each strongly connected set of more than one file (or a file importing itself), sorted. */
export function importCircles(root, options = {}) {
  const graph = importGraph(root, options);
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const circles = [];
  let next = 0;
  // Tarjan's algorithm, with an explicit stack so a deep chain cannot overflow the call stack.
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work = [[start, 0]];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [file, at] = frame;
      const targets = graph.get(file);
      if (at < targets.length) {
        frame[1]++;
        const target = targets[at];
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push([target, 0]);
        } else if (onStack.has(target)) {
          low.set(file, Math.min(low.get(file), index.get(target)));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(file)));
      }
      if (low.get(file) !== index.get(file)) continue;
      const members = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        members.push(member);
      } while (member !== file);
      if (members.length > 1 || graph.get(file).includes(file)) circles.push(members.sort());
    }
  }
  return circles.sort((a, b) => a[0].localeCompare(b[0]));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const types = !args.includes('--runtime');
  const folder = args.find((arg) => !arg.startsWith('--')) ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src');
  const graph = importGraph(folder, { types });
  const circles = importCircles(folder, { types });
  for (const circle of circles) {
    console.log(`circle of ${circle.length}:`);
    for (const file of circle) console.log(`  ${file} → ${graph.get(file).filter((target) => circle.includes(target)).join(', ')}`);
  }
  console.log(`${circles.length} import circle(s) among ${graph.size} files${types ? '' : ' (runtime imports only)'}`);
  process.exitCode = circles.length > 0 ? 1 : 0;
}
